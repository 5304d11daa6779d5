CREATE SCHEMA IF NOT EXISTS "storage";
--> statement-breakpoint
CREATE TABLE "storage"."entries" (
	"tenant_id" uuid NOT NULL,
	"key" text COLLATE "C" NOT NULL,
	"value" json NOT NULL,
	"size_bytes" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	CONSTRAINT "entries_tenant_id_key_pk" PRIMARY KEY("tenant_id","key")
);
--> statement-breakpoint
CREATE TABLE "storage"."usage" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"storage_bytes" bigint DEFAULT 0 NOT NULL,
	"storage_keys" integer DEFAULT 0 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "entries_expires_at_idx" ON "storage"."entries" USING btree ("expires_at") WHERE "storage"."entries"."expires_at" is not null;