CREATE TABLE "storage"."secrets" (
	"tenant_id" uuid NOT NULL,
	"namespace" text NOT NULL,
	"pack" text NOT NULL,
	"name" text NOT NULL,
	"sealed" "bytea" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "secrets_tenant_id_namespace_pack_name_pk" PRIMARY KEY("tenant_id","namespace","pack","name")
);
