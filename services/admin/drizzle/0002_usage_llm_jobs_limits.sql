CREATE TABLE "admin"."outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "admin"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
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
CREATE TABLE "admin"."usage_concurrency_months" (
	"period" text NOT NULL,
	"tenant_id" text NOT NULL,
	"peak_concurrent_jobs" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_concurrency_months_period_tenant_id_pk" PRIMARY KEY("period","tenant_id")
);
--> statement-breakpoint
CREATE TABLE "admin"."usage_hard_limits" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"enabled_by" text NOT NULL,
	"enabled_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin"."usage_llm" (
	"period" text NOT NULL,
	"tenant_id" text NOT NULL,
	"user_id" text NOT NULL,
	"pack" text NOT NULL,
	"model" text NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"llm_requests" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_llm_period_tenant_id_user_id_pack_model_pk" PRIMARY KEY("period","tenant_id","user_id","pack","model")
);
--> statement-breakpoint
CREATE TABLE "admin"."usage_notices" (
	"tenant_id" text NOT NULL,
	"metric" text NOT NULL,
	"day" text NOT NULL,
	"used" bigint NOT NULL,
	"quota" bigint NOT NULL,
	CONSTRAINT "usage_notices_tenant_id_metric_day_pk" PRIMARY KEY("tenant_id","metric","day")
);
--> statement-breakpoint
CREATE TABLE "admin"."usage_runs" (
	"task_id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"running" boolean NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "admin"."outbox" USING btree ("next_attempt_at") WHERE "admin"."outbox"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_sent_idx" ON "admin"."outbox" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "usage_llm_tenant_idx" ON "admin"."usage_llm" USING btree ("tenant_id","period");--> statement-breakpoint
CREATE INDEX "usage_runs_tenant_idx" ON "admin"."usage_runs" USING btree ("tenant_id","running");