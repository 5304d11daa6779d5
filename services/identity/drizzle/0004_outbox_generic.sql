CREATE TABLE "identity"."inbox" (
	"event_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "inbox_received_idx" ON "identity"."inbox" USING btree ("received_at");--> statement-breakpoint
ALTER TABLE "identity"."outbox" DROP COLUMN "recipient";--> statement-breakpoint
ALTER TABLE "identity"."outbox" DROP COLUMN "template";