ALTER TABLE "service"."messages" ADD COLUMN "payload_json" jsonb;--> statement-breakpoint
ALTER TABLE "console"."receipts" ADD COLUMN "body_json" jsonb;--> statement-breakpoint
CREATE INDEX "messages_payload_json_idx" ON "service"."messages" USING gin ("payload_json" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "messages_payload_words_idx" ON "service"."messages" USING gin (jsonb_to_tsvector('simple'::regconfig, "payload_json", '["string","numeric"]'::jsonb));--> statement-breakpoint
CREATE INDEX "messages_payload_json_pending_idx" ON "service"."messages" USING btree ("id") WHERE "service"."messages"."payload_json" is null;--> statement-breakpoint
CREATE INDEX "receipts_body_json_idx" ON "console"."receipts" USING gin ("body_json" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "receipts_body_words_idx" ON "console"."receipts" USING gin (jsonb_to_tsvector('simple'::regconfig, "body_json", '["string","numeric"]'::jsonb));--> statement-breakpoint
CREATE INDEX "receipts_body_json_pending_idx" ON "console"."receipts" USING btree ("id") WHERE "console"."receipts"."body_json" is null and body is not null;