CREATE SCHEMA IF NOT EXISTS "admin";
--> statement-breakpoint
CREATE TABLE "admin"."telemetry" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"command" text NOT NULL,
	"duration_ms" integer NOT NULL,
	"success" boolean NOT NULL,
	"python_version" text,
	"os" text NOT NULL,
	"cli_version" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "telemetry_received_at_idx" ON "admin"."telemetry" USING btree ("received_at");