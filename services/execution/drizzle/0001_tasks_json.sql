ALTER TABLE "execution"."tasks" ALTER COLUMN "input" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "execution"."tasks" ALTER COLUMN "result" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "execution"."tasks" ALTER COLUMN "error" SET DATA TYPE json;