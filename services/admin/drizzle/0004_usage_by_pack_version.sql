ALTER TABLE "admin"."usage_commands" ADD COLUMN "version" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "admin"."usage_llm" ADD COLUMN "version" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "admin"."usage_commands" DROP CONSTRAINT "usage_commands_period_tenant_id_user_id_pack_pk";--> statement-breakpoint
ALTER TABLE "admin"."usage_llm" DROP CONSTRAINT "usage_llm_period_tenant_id_user_id_pack_model_pk";--> statement-breakpoint
ALTER TABLE "admin"."usage_commands" ADD CONSTRAINT "usage_commands_period_tenant_id_user_id_pack_version_pk" PRIMARY KEY("period","tenant_id","user_id","pack","version");--> statement-breakpoint
ALTER TABLE "admin"."usage_llm" ADD CONSTRAINT "usage_llm_period_tenant_id_user_id_pack_version_model_pk" PRIMARY KEY("period","tenant_id","user_id","pack","version","model");
