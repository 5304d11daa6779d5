CREATE SCHEMA IF NOT EXISTS "ssh";
--> statement-breakpoint
CREATE TABLE "ssh"."targets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"username" text NOT NULL,
	"auth_method" text NOT NULL,
	"key_id" text NOT NULL,
	"private_key_encrypted" "bytea",
	"password_encrypted" "bytea",
	"known_hosts" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "targets_tenant_name_idx" ON "ssh"."targets" USING btree ("tenant_id","name");