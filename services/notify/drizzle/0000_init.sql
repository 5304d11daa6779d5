CREATE SCHEMA IF NOT EXISTS "notify";
--> statement-breakpoint
CREATE TABLE "notify"."deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "notify"."deliveries_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"webhook_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now(),
	"response_code" integer,
	"latency_ms" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notify"."delivery_attempts" (
	"delivery_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"response_code" integer,
	"latency_ms" integer NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "notify"."inbox" (
	"event_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notify"."outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "notify"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
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
CREATE TABLE "notify"."webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"url" text NOT NULL,
	"events" json NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"secret" text NOT NULL,
	"created_by" text NOT NULL,
	"owner_email" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"failing_since" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notify"."deliveries" ADD CONSTRAINT "deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "notify"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify"."delivery_attempts" ADD CONSTRAINT "delivery_attempts_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "notify"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deliveries_pending_idx" ON "notify"."deliveries" USING btree ("webhook_id","seq") WHERE "notify"."deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "deliveries_webhook_idx" ON "notify"."deliveries" USING btree ("webhook_id","created_at");--> statement-breakpoint
CREATE INDEX "delivery_attempts_delivery_idx" ON "notify"."delivery_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE INDEX "inbox_received_idx" ON "notify"."inbox" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "notify"."outbox" USING btree ("next_attempt_at") WHERE "notify"."outbox"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_sent_idx" ON "notify"."outbox" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "webhooks_tenant_idx" ON "notify"."webhooks" USING btree ("tenant_id");