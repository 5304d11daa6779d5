CREATE TABLE "identity"."billing_tiers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identity"."access_codes" ADD COLUMN "kind" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "identity"."access_codes" ADD COLUMN "expires_at" timestamp with time zone;