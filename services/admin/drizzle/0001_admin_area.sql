CREATE TABLE "admin"."activity" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text,
	"user_id" text,
	"event_type" text NOT NULL,
	"event_data" jsonb NOT NULL,
	"duration_ms" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin"."users" (
	"user_id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"email" text NOT NULL,
	"tier" text NOT NULL,
	"cohort" text NOT NULL,
	"access_code_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"developer_at" timestamp with time zone,
	"first_pack_at" timestamp with time zone,
	"first_command_at" timestamp with time zone,
	"last_active_at" timestamp with time zone,
	"events_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin"."audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text NOT NULL,
	"actor_role" text NOT NULL,
	"action" text NOT NULL,
	"target" text,
	"outcome" text NOT NULL,
	"correlation_id" text
);
--> statement-breakpoint
CREATE TABLE "admin"."billing_events" (
	"billing_event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"user_id" text,
	"amount_cents" integer,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin"."funnel_days" (
	"day" text PRIMARY KEY NOT NULL,
	"checkout_started" integer DEFAULT 0 NOT NULL,
	"checkout_completed" integer DEFAULT 0 NOT NULL,
	"registered" integer DEFAULT 0 NOT NULL,
	"first_command" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin"."inbox" (
	"event_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin"."subscriptions" (
	"user_id" text PRIMARY KEY NOT NULL,
	"tier" text NOT NULL,
	"status" text,
	"payment_issue" boolean NOT NULL,
	"current_period_end" text,
	"monthly_price_cents" integer NOT NULL,
	"occurred_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin"."usage_commands" (
	"period" text NOT NULL,
	"tenant_id" text NOT NULL,
	"user_id" text NOT NULL,
	"pack" text NOT NULL,
	"commands_executed" integer DEFAULT 0 NOT NULL,
	"commands_succeeded" integer DEFAULT 0 NOT NULL,
	"commands_failed" integer DEFAULT 0 NOT NULL,
	"execution_ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_commands_period_tenant_id_user_id_pack_pk" PRIMARY KEY("period","tenant_id","user_id","pack")
);
--> statement-breakpoint
CREATE TABLE "admin"."usage_storage" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"storage_bytes" bigint NOT NULL,
	"storage_keys" integer NOT NULL,
	"version" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin"."usage_storage_months" (
	"period" text NOT NULL,
	"tenant_id" text NOT NULL,
	"storage_operations" integer DEFAULT 0 NOT NULL,
	"peak_storage_bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_storage_months_period_tenant_id_pk" PRIMARY KEY("period","tenant_id")
);
--> statement-breakpoint
CREATE INDEX "activity_created_idx" ON "admin"."activity" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "activity_user_idx" ON "admin"."activity" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "activity_type_idx" ON "admin"."activity" USING btree ("event_type","created_at");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "admin"."users" USING btree ("created_at","user_id");--> statement-breakpoint
CREATE INDEX "users_tier_idx" ON "admin"."users" USING btree ("tier","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "admin"."audit_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "admin"."audit_log" USING btree ("actor_id","at");--> statement-breakpoint
CREATE INDEX "billing_events_user_idx" ON "admin"."billing_events" USING btree ("user_id","occurred_at");--> statement-breakpoint
CREATE INDEX "billing_events_at_idx" ON "admin"."billing_events" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "inbox_received_idx" ON "admin"."inbox" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "subscriptions_status_idx" ON "admin"."subscriptions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "usage_commands_tenant_idx" ON "admin"."usage_commands" USING btree ("tenant_id","period");