DROP INDEX "service"."messages_payload_words_idx";--> statement-breakpoint
DROP INDEX "console"."receipts_body_words_idx";--> statement-breakpoint
ALTER TABLE "service"."messages" ADD COLUMN "payload_words" "tsvector";--> statement-breakpoint
ALTER TABLE "console"."receipts" ADD COLUMN "body_words" "tsvector";--> statement-breakpoint
CREATE INDEX "messages_payload_words_gin_idx" ON "service"."messages" USING gin ("payload_words");--> statement-breakpoint
CREATE INDEX "messages_payload_words_pending_idx" ON "service"."messages" USING btree ("id") WHERE "service"."messages"."payload_words" is null and "service"."messages"."payload_json" is not null;--> statement-breakpoint
CREATE INDEX "receipts_body_words_gin_idx" ON "console"."receipts" USING gin ("body_words");--> statement-breakpoint
CREATE INDEX "receipts_body_words_pending_idx" ON "console"."receipts" USING btree ("id") WHERE "console"."receipts"."body_words" is null and "console"."receipts"."body_json" is not null;--> statement-breakpoint
-- Hand-written: the words of a payload-search jsonb, stored beside it by a trigger, so every writer
-- (ingest, emitEvent, the backfills, purge, erasure) keeps them without knowing of them. Rows stored
-- before this migration get theirs from the backfill (lib/console/search/backfill-body-json.ts,
-- lib/service/messages/backfill-payload-json.ts), which rewrites their jsonb in batches.
CREATE FUNCTION "service"."messages_payload_words"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$ BEGIN
    NEW.payload_words := jsonb_to_tsvector('simple'::regconfig, NEW.payload_json, '["string","numeric"]'::jsonb);
    RETURN NEW;
  END $$;--> statement-breakpoint
CREATE TRIGGER "messages_payload_words" BEFORE INSERT OR UPDATE OF "payload_json" ON "service"."messages"
  FOR EACH ROW EXECUTE FUNCTION "service"."messages_payload_words"();--> statement-breakpoint
CREATE FUNCTION "console"."receipts_body_words"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$ BEGIN
    NEW.body_words := jsonb_to_tsvector('simple'::regconfig, NEW.body_json, '["string","numeric"]'::jsonb);
    RETURN NEW;
  END $$;--> statement-breakpoint
CREATE TRIGGER "receipts_body_words" BEFORE INSERT OR UPDATE OF "body_json" ON "console"."receipts"
  FOR EACH ROW EXECUTE FUNCTION "console"."receipts_body_words"();
