-- Hand-written (issue 52): service.messages becomes a table partitioned by range of created_at, as service.deliveries is
-- since 0039 (a delivery's created_at is its message's, so a range of messages and the deliveries of them share bounds),
-- so that retention can drop a day of messages instead of deleting them row by row. Every row stays: the old table
-- becomes the first partition, messages_p0, from MINVALUE to the moment of this migration (the cutover), its range proved
-- first by a CHECK added NOT VALID and then validated, so ATTACH finds it implied and reads no row; the indexes that keep
-- their columns (eight) are taken over by the new table's, not built again. The payload-words trigger moves to the new table.
-- Keys, as partitioning requires the partition key in every unique index:
--   primary key  (id, created_at). Built anew on messages_p0 (one read of the table), unless an operator built it before
--                the upgrade, CONCURRENTLY, under the name this uses (IF NOT EXISTS; docs/OPERATIONS.md).
--   event ids    (account_id, event_id) is no longer unique, only an index (built anew the same way: a unique index cannot
--                be taken over by one that is not). A unique index without created_at cannot exist on a partitioned table,
--                and with it, it would hold nothing more than this one. Nothing relies on it: an event id is made by the app
--                with its message (evt_<KSUID>, 128 random bits; emit-event.ts, create-grant.ts), never taken from a client
--                and never an ON CONFLICT target: the idempotent paths (an Idempotency-Key, a tracking id) guard the grant's
--                insert, which the message's rides on, in the same statement. A lookup by event id reads this index,
--                bounded in time by the KSUID as a lookup by message id is (lib/service/messages/message-time.ts).
--   deliveries → messages: the foreign key becomes (message_id, created_at) → messages (id, created_at), which holds the
--                same pairs, since every delivery is written with its message's created_at (enqueue.ts), and checks each
--                delivery against one partition of messages. It is validated here, a read of deliveries under lock.
-- The migration locks service.messages and service.deliveries until it commits: ingest and the worker wait for it
-- (docs/OPERATIONS.md: how long, on 1M messages). It takes both locks first, messages before deliveries, in the order
-- ingest's statement takes them (0039: taken as the statements reach them, a grant from another connection deadlocked
-- with the migration and PostgreSQL aborted it).
-- The partitions after the cutover are the app's (lib/db/partitions): this migration makes the first, to the next UTC
-- midnight, so no message waits for the app's upkeep.
LOCK TABLE "service"."messages", "service"."deliveries" IN ACCESS EXCLUSIVE MODE;--> statement-breakpoint
ALTER TABLE "service"."deliveries" DROP CONSTRAINT "deliveries_message_id_messages_id_fk";--> statement-breakpoint
ALTER TABLE "service"."messages" RENAME TO "messages_p0";--> statement-breakpoint
DROP TRIGGER "messages_payload_words" ON "service"."messages_p0";--> statement-breakpoint
ALTER INDEX "service"."messages_account_id_created_at_index" RENAME TO "messages_p0_account_id_created_at_index";--> statement-breakpoint
ALTER INDEX "service"."messages_tags_index" RENAME TO "messages_p0_tags_index";--> statement-breakpoint
ALTER INDEX "service"."messages_payload_json_idx" RENAME TO "messages_p0_payload_json_idx";--> statement-breakpoint
ALTER INDEX "service"."messages_payload_words_gin_idx" RENAME TO "messages_p0_payload_words_gin_idx";--> statement-breakpoint
ALTER INDEX "service"."messages_payload_json_pending_idx" RENAME TO "messages_p0_payload_json_pending_idx";--> statement-breakpoint
ALTER INDEX "service"."messages_payload_words_pending_idx" RENAME TO "messages_p0_payload_words_pending_idx";--> statement-breakpoint
ALTER INDEX "service"."messages_payload_kept_idx" RENAME TO "messages_p0_payload_kept_idx";--> statement-breakpoint
ALTER INDEX "service"."messages_created_at_idx" RENAME TO "messages_p0_created_at_idx";--> statement-breakpoint
ALTER INDEX "service"."messages_account_payload_kept_idx" RENAME TO "messages_p0_account_payload_kept_idx";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "messages_p0_pkey" ON "service"."messages_p0" USING btree ("id","created_at");--> statement-breakpoint
ALTER TABLE "service"."messages_p0" DROP CONSTRAINT "messages_pkey";--> statement-breakpoint
ALTER TABLE "service"."messages_p0" ADD CONSTRAINT "messages_p0_pkey" PRIMARY KEY USING INDEX "messages_p0_pkey";--> statement-breakpoint
DROP INDEX "service"."messages_account_id_event_id_index";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "messages_p0_account_id_event_id_index" ON "service"."messages_p0" USING btree ("account_id","event_id");--> statement-breakpoint
CREATE TABLE "service"."messages" (LIKE "service"."messages_p0" INCLUDING DEFAULTS) PARTITION BY RANGE ("created_at");--> statement-breakpoint
ALTER TABLE "service"."messages" ADD CONSTRAINT "messages_id_created_at_pk" PRIMARY KEY ("id", "created_at");--> statement-breakpoint
CREATE INDEX "messages_account_id_created_at_index" ON "service"."messages" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_account_id_event_id_index" ON "service"."messages" USING btree ("account_id","event_id");--> statement-breakpoint
CREATE INDEX "messages_tags_index" ON "service"."messages" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "messages_payload_json_idx" ON "service"."messages" USING gin ("payload_json" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "messages_payload_words_gin_idx" ON "service"."messages" USING gin ("payload_words");--> statement-breakpoint
CREATE INDEX "messages_payload_json_pending_idx" ON "service"."messages" USING btree ("id") WHERE "payload_json" is null;--> statement-breakpoint
CREATE INDEX "messages_payload_words_pending_idx" ON "service"."messages" USING btree ("id") WHERE "payload_words" is null and "payload_json" is not null;--> statement-breakpoint
CREATE INDEX "messages_payload_kept_idx" ON "service"."messages" USING btree ("created_at") WHERE payload_purged_at is null;--> statement-breakpoint
CREATE INDEX "messages_created_at_idx" ON "service"."messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "messages_account_payload_kept_idx" ON "service"."messages" USING btree ("account_id","created_at") WHERE payload_purged_at is null;--> statement-breakpoint
DO $$
DECLARE
  cutover timestamptz := date_trunc('milliseconds', now());
  midnight timestamptz := (date_trunc('day', now() AT TIME ZONE 'UTC') + interval '1 day') AT TIME ZONE 'UTC';
  first text := 'messages_p' || to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD');
BEGIN
  EXECUTE format('ALTER TABLE "service"."messages_p0" ADD CONSTRAINT "messages_p0_range" CHECK ("created_at" < %L) NOT VALID', cutover);
  ALTER TABLE "service"."messages_p0" VALIDATE CONSTRAINT "messages_p0_range";
  EXECUTE format('CREATE TABLE "service".%I PARTITION OF "service"."messages" FOR VALUES FROM (%L) TO (%L)', first, cutover, midnight);
  EXECUTE format('ALTER TABLE "service"."messages" ATTACH PARTITION "service"."messages_p0" FOR VALUES FROM (MINVALUE) TO (%L)', cutover);
END $$;--> statement-breakpoint
CREATE TRIGGER "messages_payload_words" BEFORE INSERT OR UPDATE OF "payload_json" ON "service"."messages"
  FOR EACH ROW EXECUTE FUNCTION "service"."messages_payload_words"();--> statement-breakpoint
ALTER TABLE "service"."deliveries" ADD CONSTRAINT "deliveries_message_id_created_at_messages_id_created_at_fk" FOREIGN KEY ("message_id","created_at") REFERENCES "service"."messages"("id","created_at") ON DELETE no action ON UPDATE no action;
