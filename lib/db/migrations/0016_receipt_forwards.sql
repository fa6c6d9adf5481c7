CREATE TABLE "console"."forwards" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"receipt_id" bigint NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor" text NOT NULL,
	"url" text NOT NULL,
	"mode" text NOT NULL,
	"method" text NOT NULL,
	"sent_headers" jsonb NOT NULL,
	"status" integer NOT NULL,
	"response_headers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"response_body" "bytea",
	"response_size" integer DEFAULT 0 NOT NULL,
	"response_truncated" boolean DEFAULT false NOT NULL,
	"elapsed_ms" integer NOT NULL,
	"error" text,
	"body_purged_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "console"."forwards" ADD CONSTRAINT "forwards_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "console"."receipts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "forwards_receipt_id_id_index" ON "console"."forwards" USING btree ("receipt_id","id" DESC NULLS LAST);