CREATE TABLE "registry"."installations" (
	"tenant_id" uuid NOT NULL,
	"pack_id" uuid NOT NULL,
	"pinned_version_id" uuid,
	"installed_by" uuid NOT NULL,
	"installed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "installations_tenant_id_pack_id_pk" PRIMARY KEY("tenant_id","pack_id")
);
--> statement-breakpoint
ALTER TABLE "registry"."installations" ADD CONSTRAINT "installations_pack_id_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "registry"."packs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registry"."installations" ADD CONSTRAINT "installations_pinned_version_id_pack_versions_id_fk" FOREIGN KEY ("pinned_version_id") REFERENCES "registry"."pack_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "installations_pack_idx" ON "registry"."installations" USING btree ("pack_id");--> statement-breakpoint
-- Every pack installed before installations existed was installed into its owning tenant.
INSERT INTO "registry"."installations" ("tenant_id", "pack_id", "installed_by", "installed_at")
SELECT "owner_tenant_id", "id", "installed_by", "installed_at" FROM "registry"."packs"
WHERE "active_version_id" IS NOT NULL AND "installed_by" IS NOT NULL AND "installed_at" IS NOT NULL;
