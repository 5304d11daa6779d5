CREATE SCHEMA IF NOT EXISTS "billing";
--> statement-breakpoint
CREATE TABLE "billing"."inbox" (
	"event_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing"."outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "billing"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
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
CREATE TABLE "billing"."registration_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"ref" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"email" text,
	"access_code_id" uuid,
	"code" text,
	"payment_intent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registration_sessions_payment_intent_unique" UNIQUE("payment_intent")
);
--> statement-breakpoint
CREATE TABLE "billing"."subscriptions" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"email" text,
	"cohort" text,
	"customer_id" text,
	"subscription_id" text,
	"tier" text DEFAULT 'free' NOT NULL,
	"status" text,
	"payment_issue" boolean DEFAULT false NOT NULL,
	"current_period_end" timestamp with time zone,
	"grace_ends_at" timestamp with time zone,
	"next_reminder_at" timestamp with time zone,
	"last_event_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_customer_id_unique" UNIQUE("customer_id")
);
--> statement-breakpoint
CREATE TABLE "billing"."webhook_events" (
	"endpoint" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" json NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_events_endpoint_event_id_pk" PRIMARY KEY("endpoint","event_id")
);
--> statement-breakpoint
CREATE INDEX "inbox_received_idx" ON "billing"."inbox" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "billing"."outbox" USING btree ("next_attempt_at") WHERE "billing"."outbox"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_sent_idx" ON "billing"."outbox" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "subscriptions_grace_idx" ON "billing"."subscriptions" USING btree ("next_reminder_at");