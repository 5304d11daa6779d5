ALTER TABLE "registry"."pack_versions" ADD COLUMN "signature_public_key" text;--> statement-breakpoint
ALTER TABLE "registry"."pack_versions" ADD COLUMN "signature" text;