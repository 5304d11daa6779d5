#!/bin/sh
# Creates the Secrets the fleet reads (k8s/README.md, "Secrets"): `svc-secrets`, and per service
# `svc-<service>-db` with its Postgres roles' password and URLs, from freshly generated values.
#
#   k8s/scripts/create-secrets.sh --namespace svc-dev --in-cluster
#   REDIS_URL=rediss://… AMQP_URL=amqps://… POSTGRES_HOST=db.example.com \
#     k8s/scripts/create-secrets.sh --namespace svc --roles-env ./roles.env
#
# Options:
#   --namespace NS        where the Secrets go (required)
#   --in-cluster          the URLs of components/in-cluster-infra, with generated passwords for it
#   --rabbitmq-cluster    AMQP_URL from the Secret the RabbitMQ Cluster Operator made
#                         (components/rabbitmq-cluster)
#   --roles-env FILE      also write DB_<SERVICE>_PASSWORD lines for postgres-roles.sh, which makes
#                         the roles on a managed Postgres (mode 600; delete it afterwards)
#   --dry-run             print the Secrets as YAML instead of creating them (no cluster needed)
#
# Without --in-cluster: REDIS_URL, AMQP_URL (unless --rabbitmq-cluster) and POSTGRES_HOST
# (host[:port]) are required, POSTGRES_DB defaults to svc. Optional, copied when set: SMTP_URL,
# AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, STRIPE_SECRET_KEY, SVC_PAYMENT_WEBHOOK_SECRET,
# SVC_PAYMENT_WEBHOOK_SECRET_REGISTRATION.
#
# A Secret that exists is left as it is: its passwords are already those of the database roles,
# and new ones would lock the services out. Delete it first to replace it.
set -eu

# The services with roles of their own: postgres-roles.sh makes the same ones.
SERVICES="identity registry execution storage admin billing notify dashboard ssh"
KUBECTL=${KUBECTL:-kubectl}

namespace="" in_cluster=false rabbitmq_cluster=false roles_env="" dry_run=false
while [ $# -gt 0 ]; do
  case "$1" in
    --namespace) namespace=${2:?--namespace needs a value}; shift 2 ;;
    --in-cluster) in_cluster=true; shift ;;
    --rabbitmq-cluster) rabbitmq_cluster=true; shift ;;
    --roles-env) roles_env=${2:?--roles-env needs a file}; shift 2 ;;
    --dry-run) dry_run=true; shift ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option: $1 (--help)" >&2; exit 2 ;;
  esac
done
[ -n "$namespace" ] || { echo "--namespace is required (--help)" >&2; exit 2; }

hex() { openssl rand -hex "$1"; }

if $in_cluster; then
  postgres_password=$(hex 16) redis_password=$(hex 16) rabbitmq_password=$(hex 16)
  REDIS_URL="redis://:$redis_password@redis:6379"
  AMQP_URL="amqp://svc:$rabbitmq_password@rabbitmq:5672"
  POSTGRES_HOST=postgres:5432
fi
POSTGRES_DB=${POSTGRES_DB:-svc}
if $rabbitmq_cluster; then
  user=$($KUBECTL -n "$namespace" get secret svc-rabbitmq-default-user -o jsonpath='{.data.username}' | base64 -d)
  pass=$($KUBECTL -n "$namespace" get secret svc-rabbitmq-default-user -o jsonpath='{.data.password}' | base64 -d)
  AMQP_URL="amqp://$user:$pass@svc-rabbitmq:5672"
fi
missing=""
for name in REDIS_URL AMQP_URL POSTGRES_HOST; do
  eval "value=\${$name:-}"
  [ -n "$value" ] || missing="$missing $name"
done
[ -z "$missing" ] || { echo "set$missing (or use --in-cluster)" >&2; exit 2; }

# Creates the Secret, or prints it with --dry-run; one that exists is kept.
secret() { # name, then --from-literal=KEY=VALUE…
  name=$1; shift
  if $dry_run; then
    echo "---"
    $KUBECTL -n "$namespace" create secret generic "$name" "$@" --dry-run=client -o yaml
  elif $KUBECTL -n "$namespace" get secret "$name" >/dev/null 2>&1; then
    echo "kept $name: it exists (delete it to make a new one)" >&2
  else
    $KUBECTL -n "$namespace" create secret generic "$name" "$@" >/dev/null
    echo "created $name" >&2
  fi
}

# Copies an optional variable into svc-secrets when it is set.
optional() {
  eval "value=\${$1:-}"
  [ -z "$value" ] || printf '%s\n' "--from-literal=$1=$value"
}

set -- \
  "--from-literal=REDIS_URL=$REDIS_URL" \
  "--from-literal=AMQP_URL=$AMQP_URL" \
  "--from-literal=SVC_JWT_SECRET=$(hex 32)" \
  "--from-literal=SVC_INTERNAL_SECRET=$(hex 32)" \
  "--from-literal=SVC_SSH_ENCRYPTION_KEY=$(openssl rand -base64 32)"
if $in_cluster; then
  set -- "$@" "--from-literal=POSTGRES_PASSWORD=$postgres_password" "--from-literal=REDIS_PASSWORD=$redis_password" "--from-literal=RABBITMQ_PASSWORD=$rabbitmq_password"
fi
for name in SMTP_URL AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY STRIPE_SECRET_KEY SVC_PAYMENT_WEBHOOK_SECRET SVC_PAYMENT_WEBHOOK_SECRET_REGISTRATION; do
  literal=$(optional "$name")
  [ -z "$literal" ] || set -- "$@" "$literal"
done
secret svc-secrets "$@"

if [ -n "$roles_env" ]; then
  (umask 077 && : > "$roles_env")
fi
for service in $SERVICES gateway; do
  password=$(hex 16)
  url="postgres://svc_$service:$password@$POSTGRES_HOST/$POSTGRES_DB"
  if [ "$service" = gateway ]; then
    # The gateway only connects (its readiness): no schema, no migrator.
    secret "svc-$service-db" "--from-literal=PASSWORD=$password" "--from-literal=DATABASE_URL=$url"
  else
    secret "svc-$service-db" "--from-literal=PASSWORD=$password" "--from-literal=DATABASE_URL=$url" \
      "--from-literal=DATABASE_MIGRATION_URL=postgres://svc_${service}_migrator:$password@$POSTGRES_HOST/$POSTGRES_DB"
  fi
  [ -z "$roles_env" ] || echo "DB_$(echo "$service" | tr '[:lower:]' '[:upper:]')_PASSWORD=$password" >> "$roles_env"
done
