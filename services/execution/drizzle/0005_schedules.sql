CREATE TABLE "execution"."inbox" (
	"event_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "execution"."schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"namespace" text NOT NULL,
	"command" text NOT NULL,
	"input" json NOT NULL,
	"cron" text NOT NULL,
	"timezone" text NOT NULL,
	"enabled" boolean NOT NULL,
	"overlap" text NOT NULL,
	"catch_up" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"paused_reason" text,
	"next_run_at" timestamp with time zone,
	"pending_tick" timestamp with time zone,
	"pending_since" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_task_id" uuid,
	"missed_ticks" integer DEFAULT 0 NOT NULL,
	"skipped_ticks" integer DEFAULT 0 NOT NULL,
	"proposed_by" text,
	"proposal_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "execution"."tasks" ADD COLUMN "schedule_id" uuid;--> statement-breakpoint
ALTER TABLE "execution"."tasks" ADD COLUMN "scheduled_for" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "inbox_received_idx" ON "execution"."inbox" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "schedules_tenant_idx" ON "execution"."schedules" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "schedules_due_idx" ON "execution"."schedules" USING btree ("next_run_at") WHERE "execution"."schedules"."enabled";--> statement-breakpoint
CREATE INDEX "schedules_pending_idx" ON "execution"."schedules" USING btree ("pending_since") WHERE "execution"."schedules"."pending_tick" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "schedules_proposal_idx" ON "execution"."schedules" USING btree ("tenant_id","proposal_key");--> statement-breakpoint
CREATE INDEX "tasks_schedule_idx" ON "execution"."tasks" USING btree ("schedule_id","created_at") WHERE "execution"."tasks"."schedule_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_schedule_tick_idx" ON "execution"."tasks" USING btree ("schedule_id","scheduled_for");