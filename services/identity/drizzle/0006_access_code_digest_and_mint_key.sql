ALTER TABLE "identity"."access_codes" ALTER COLUMN "code" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "identity"."access_codes" ADD COLUMN "code_digest" text;--> statement-breakpoint
ALTER TABLE "identity"."access_codes" ADD COLUMN "mint_key" text;--> statement-breakpoint
ALTER TABLE "identity"."access_codes" ADD CONSTRAINT "access_codes_code_digest_unique" UNIQUE("code_digest");--> statement-breakpoint
ALTER TABLE "identity"."access_codes" ADD CONSTRAINT "access_codes_mint_key_unique" UNIQUE("mint_key");