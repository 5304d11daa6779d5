CREATE SCHEMA IF NOT EXISTS "execution";
--> statement-breakpoint
CREATE TABLE "execution"."idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"task_id" uuid NOT NULL,
	"command_path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "execution"."tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"namespace" text NOT NULL,
	"command" text NOT NULL,
	"pack_id" text NOT NULL,
	"pack_version" text NOT NULL,
	"pack_version_id" text NOT NULL,
	"entry" text NOT NULL,
	"queue" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"async" boolean NOT NULL,
	"input" jsonb NOT NULL,
	"result" jsonb,
	"error" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_retries" integer NOT NULL,
	"timeout_ms" integer NOT NULL,
	"duration_ms" integer,
	"correlation_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"result_expires_at" timestamp with time zone,
	"result_purged" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX "tasks_user_idx" ON "execution"."tasks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tasks_expiry_idx" ON "execution"."tasks" USING btree ("result_expires_at");