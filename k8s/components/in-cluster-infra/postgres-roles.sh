#!/bin/sh
# Runs once, when the Postgres volume is first initialised (docker-entrypoint-initdb.d): a role
# for each service to run as and one to migrate its schema with, so that no process of the fleet
# runs as the superuser. Neither is a superuser or may create roles or databases; the migrator
# may create its service's schema (which it then owns), and the service's role is granted the
# use of that schema's tables after each migration (libs/db README, "Roles"). Both take the
# service's password, DB_<SERVICE>_PASSWORD; the gateway's role may only connect.
set -eu

role() { # name, password, extra SQL
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v name="$1" -v password="$2" -v db="$POSTGRES_DB" <<'SQL'
CREATE ROLE :"name" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD :'password';
GRANT CONNECT ON DATABASE :"db" TO :"name";
SQL
}

psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -c 'REVOKE CREATE ON SCHEMA public FROM PUBLIC'
for service in identity registry execution storage admin billing notify dashboard ssh; do
  password=$(printenv "DB_$(echo "$service" | tr '[:lower:]' '[:upper:]')_PASSWORD")
  role "svc_$service" "$password"
  role "svc_${service}_migrator" "$password"
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -c "GRANT CREATE ON DATABASE \"$POSTGRES_DB\" TO svc_${service}_migrator"
done
role svc_gateway "$DB_GATEWAY_PASSWORD"
