ALTER TABLE "identity"."outbox" ALTER COLUMN "recipient" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "identity"."outbox" ALTER COLUMN "template" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "identity"."outbox" ALTER COLUMN "payload" SET DATA TYPE json USING json_build_object('to', "recipient", 'data', "payload");--> statement-breakpoint
ALTER TABLE "identity"."outbox" ALTER COLUMN "next_attempt_at" DROP NOT NULL;--> statement-breakpoint
UPDATE "identity"."outbox" SET "next_attempt_at" = NULL WHERE "sent_at" IS NULL AND "attempts" >= 8;--> statement-breakpoint
ALTER TABLE "identity"."outbox" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "identity"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "identity"."outbox" ADD COLUMN "name" text;--> statement-breakpoint
UPDATE "identity"."outbox" SET "name" = "template";--> statement-breakpoint
ALTER TABLE "identity"."outbox" ALTER COLUMN "name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "identity"."outbox" ADD COLUMN "correlation_id" text;--> statement-breakpoint
CREATE INDEX "outbox_sent_idx" ON "identity"."outbox" USING btree ("sent_at");
