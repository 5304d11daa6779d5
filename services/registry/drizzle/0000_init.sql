CREATE SCHEMA IF NOT EXISTS "registry";
--> statement-breakpoint
CREATE TABLE "registry"."commands" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"pack_id" uuid NOT NULL,
	"pack_version_id" uuid NOT NULL,
	"namespace" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"entry" text NOT NULL,
	"input_schema" jsonb NOT NULL,
	"timeout_seconds" integer NOT NULL,
	"retries" integer NOT NULL,
	"queue" text NOT NULL,
	"tags" jsonb NOT NULL,
	"examples" jsonb NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	CONSTRAINT "commands_version_name_unique" UNIQUE("pack_version_id","name")
);
--> statement-breakpoint
CREATE TABLE "registry"."grants" (
	"pack_id" uuid NOT NULL,
	"grantee_tenant_id" uuid NOT NULL,
	"granted_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grants_pack_id_grantee_tenant_id_pk" PRIMARY KEY("pack_id","grantee_tenant_id")
);
--> statement-breakpoint
CREATE TABLE "registry"."pack_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"pack_id" uuid NOT NULL,
	"version" text NOT NULL,
	"description" text NOT NULL,
	"visibility" text NOT NULL,
	"manifest" jsonb NOT NULL,
	"blob_key" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"published_by" uuid NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pack_versions_pack_version_unique" UNIQUE("pack_id","version")
);
--> statement-breakpoint
CREATE TABLE "registry"."packs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"namespace" text NOT NULL,
	"name" text NOT NULL,
	"owner_tenant_id" uuid NOT NULL,
	"active_version_id" uuid,
	"installed_at" timestamp with time zone,
	"installed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "packs_namespace_name_unique" UNIQUE("namespace","name")
);
--> statement-breakpoint
ALTER TABLE "registry"."commands" ADD CONSTRAINT "commands_pack_id_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "registry"."packs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registry"."commands" ADD CONSTRAINT "commands_pack_version_id_pack_versions_id_fk" FOREIGN KEY ("pack_version_id") REFERENCES "registry"."pack_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registry"."grants" ADD CONSTRAINT "grants_pack_id_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "registry"."packs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registry"."pack_versions" ADD CONSTRAINT "pack_versions_pack_id_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "registry"."packs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registry"."packs" ADD CONSTRAINT "packs_active_version_id_pack_versions_id_fk" FOREIGN KEY ("active_version_id") REFERENCES "registry"."pack_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "commands_active_name_idx" ON "registry"."commands" USING btree ("namespace","name") WHERE "registry"."commands"."active";--> statement-breakpoint
CREATE INDEX "commands_pack_idx" ON "registry"."commands" USING btree ("pack_id");--> statement-breakpoint
CREATE INDEX "grants_grantee_idx" ON "registry"."grants" USING btree ("grantee_tenant_id");--> statement-breakpoint
CREATE INDEX "packs_owner_idx" ON "registry"."packs" USING btree ("owner_tenant_id");