CREATE SCHEMA IF NOT EXISTS "dashboard";
--> statement-breakpoint
CREATE TABLE "dashboard"."dashboards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_tenant_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category" text,
	"visibility" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dashboard"."files" (
	"version_id" uuid NOT NULL,
	"path" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	CONSTRAINT "files_version_id_path_pk" PRIMARY KEY("version_id","path")
);
--> statement-breakpoint
CREATE TABLE "dashboard"."grants" (
	"dashboard_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grants_dashboard_id_tenant_id_pk" PRIMARY KEY("dashboard_id","tenant_id")
);
--> statement-breakpoint
CREATE TABLE "dashboard"."outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "dashboard"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"payload" json NOT NULL,
	"correlation_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now(),
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "dashboard"."shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dashboard_id" uuid NOT NULL,
	"expires_at" timestamp with time zone,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dashboard"."versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dashboard_id" uuid NOT NULL,
	"version" text NOT NULL,
	"entry_point" text NOT NULL,
	"min_sdk_version" text NOT NULL,
	"pack_dependencies" jsonb NOT NULL,
	"bundle_size_bytes" bigint NOT NULL,
	"is_active" boolean NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dashboard"."files" ADD CONSTRAINT "files_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "dashboard"."versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard"."grants" ADD CONSTRAINT "grants_dashboard_id_dashboards_id_fk" FOREIGN KEY ("dashboard_id") REFERENCES "dashboard"."dashboards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard"."shares" ADD CONSTRAINT "shares_dashboard_id_dashboards_id_fk" FOREIGN KEY ("dashboard_id") REFERENCES "dashboard"."dashboards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard"."versions" ADD CONSTRAINT "versions_dashboard_id_dashboards_id_fk" FOREIGN KEY ("dashboard_id") REFERENCES "dashboard"."dashboards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dashboards_scope_name_unique" ON "dashboard"."dashboards" USING btree ("scope","name");--> statement-breakpoint
CREATE UNIQUE INDEX "dashboards_slug_unique" ON "dashboard"."dashboards" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "dashboards_owner_idx" ON "dashboard"."dashboards" USING btree ("owner_tenant_id");--> statement-breakpoint
CREATE INDEX "grants_tenant_idx" ON "dashboard"."grants" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "dashboard"."outbox" USING btree ("next_attempt_at") WHERE "dashboard"."outbox"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_sent_idx" ON "dashboard"."outbox" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "shares_dashboard_idx" ON "dashboard"."shares" USING btree ("dashboard_id");--> statement-breakpoint
CREATE UNIQUE INDEX "versions_dashboard_version_unique" ON "dashboard"."versions" USING btree ("dashboard_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "versions_one_active" ON "dashboard"."versions" USING btree ("dashboard_id") WHERE "dashboard"."versions"."is_active";