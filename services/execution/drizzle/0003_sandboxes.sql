CREATE TABLE "execution"."sandbox_packages" (
	"user_id" uuid NOT NULL,
	"namespace" text NOT NULL,
	"pack" text NOT NULL,
	"version" text NOT NULL,
	"sha256" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"manifest" json NOT NULL,
	"tarball" "bytea" NOT NULL,
	"synced_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sandbox_packages_user_id_namespace_pack_pk" PRIMARY KEY("user_id","namespace","pack")
);
--> statement-breakpoint
CREATE TABLE "execution"."sandbox_usage" (
	"user_id" uuid NOT NULL,
	"month" text NOT NULL,
	"executions" integer NOT NULL,
	CONSTRAINT "sandbox_usage_user_id_month_pk" PRIMARY KEY("user_id","month")
);
--> statement-breakpoint
CREATE TABLE "execution"."sandboxes" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"timeout_seconds" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_active_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone
);
