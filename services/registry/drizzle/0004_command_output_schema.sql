ALTER TABLE "registry"."commands" ADD COLUMN "output_schema" jsonb;--> statement-breakpoint
ALTER TABLE "registry"."commands" ADD COLUMN "annotations" jsonb DEFAULT '{}'::jsonb NOT NULL;