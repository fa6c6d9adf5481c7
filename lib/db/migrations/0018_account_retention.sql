CREATE TABLE "service"."account_retention" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"message_payload_retention_ms" bigint,
	"message_retention_ms" bigint,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "service"."account_retention" ADD CONSTRAINT "account_retention_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "service"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attempts_account_response_kept_idx" ON "service"."attempts" USING btree ("account_id","created_at") WHERE response_purged_at is null;--> statement-breakpoint
CREATE INDEX "messages_account_payload_kept_idx" ON "service"."messages" USING btree ("account_id","created_at") WHERE payload_purged_at is null;