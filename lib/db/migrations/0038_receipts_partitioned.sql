-- Hand-written (issue 52): console.receipts becomes a table partitioned by range of its id, each partition
-- the receipts of one interval of arrival (a day on PostgreSQL, a week on the embedded store), so that
-- retention can drop an interval of receipts instead of deleting them row by row.
--
-- By id, not by received_at: ids come from one sequence in arrival order, and the app moves the sequence
-- to the next partition's first id at each interval's start (lib/db/partitions/receipt-slots.ts), so a
-- partition holds an interval's arrivals and console.receipt_partitions records when it was opened and
-- closed. Most reads find a receipt by id: its page, its forwards (their foreign key), a receiver's log
-- and stream (receiver, id), the duplicate check (message, receiver, an earlier id), the share links; by
-- id each plans one partition. By received_at, with (id, received_at) as the key, every one of those
-- plans and probes every partition: with 40 partitions of 10,000 rows (EXPLAIN ANALYZE, warm) a lookup
-- by id planned 40 partitions, 4.9 ms to plan on PGlite (0.16 ms by id range), 1.4 ms + 0.7 ms generic
-- on PostgreSQL 15 (0.7 + 0.03 ms), and the duplicate probe 15.3 ms to plan on PGlite (0.27 ms); a year
-- of daily partitions on PostgreSQL is 365. A window read (received_at since a time) prunes when it also
-- bounds the id by the first id of the oldest partition closed after that time (receipt-window.ts):
-- every receipt's received_at (its transaction's start) is before its id was drawn, so a partition
-- closed before the window's start holds nothing of it. The key stays (id) and nothing is rewritten:
-- forwards keep their foreign key (pointed at the partitioned table), no column is added to them.
--
-- Every row stays: the old table becomes the first partition, receipts_p0, from MINVALUE to the next
-- multiple of 10^10 past the sequence (the first id of the partitions the app makes), its range proved
-- by a CHECK added NOT VALID and validated, so ATTACH reads no row; its twelve indexes, its primary
-- key among them, match the new table's and are taken over, not built again. The triggers move to the
-- new table. Ingest writes receipts, so it waits for this migration's lock: a scan of the table for the
-- CHECK (no sort, no index build) and the forwards' foreign key checked again (forwards are few).
ALTER TABLE "console"."receipts" RENAME TO "receipts_p0";--> statement-breakpoint
DROP TRIGGER "receipts_body_words" ON "console"."receipts_p0";--> statement-breakpoint
DROP TRIGGER "receipts_trouble_hours_insert" ON "console"."receipts_p0";--> statement-breakpoint
DROP TRIGGER "receipts_trouble_hours_delete" ON "console"."receipts_p0";--> statement-breakpoint
DROP TRIGGER "receipts_trouble_hours_truncate" ON "console"."receipts_p0";--> statement-breakpoint
ALTER TABLE "console"."receipts_p0" RENAME CONSTRAINT "receipts_pkey" TO "receipts_p0_pkey";--> statement-breakpoint
ALTER INDEX "console"."receipts_body_json_idx" RENAME TO "receipts_p0_body_json_idx";--> statement-breakpoint
ALTER INDEX "console"."receipts_body_json_pending_idx" RENAME TO "receipts_p0_body_json_pending_idx";--> statement-breakpoint
ALTER INDEX "console"."receipts_body_kept_idx" RENAME TO "receipts_p0_body_kept_idx";--> statement-breakpoint
ALTER INDEX "console"."receipts_body_words_gin_idx" RENAME TO "receipts_p0_body_words_gin_idx";--> statement-breakpoint
ALTER INDEX "console"."receipts_body_words_pending_idx" RENAME TO "receipts_p0_body_words_pending_idx";--> statement-breakpoint
ALTER INDEX "console"."receipts_message_id_receiver_id_index" RENAME TO "receipts_p0_message_id_receiver_id_index";--> statement-breakpoint
ALTER INDEX "console"."receipts_received_at_idx" RENAME TO "receipts_p0_received_at_idx";--> statement-breakpoint
ALTER INDEX "console"."receipts_receiver_id_id_index" RENAME TO "receipts_p0_receiver_id_id_index";--> statement-breakpoint
ALTER INDEX "console"."receipts_stream_idx" RENAME TO "receipts_p0_stream_idx";--> statement-breakpoint
ALTER INDEX "console"."receipts_troubled_idx" RENAME TO "receipts_p0_troubled_idx";--> statement-breakpoint
ALTER INDEX "console"."receipts_unverified_accepted_idx" RENAME TO "receipts_p0_unverified_accepted_idx";--> statement-breakpoint
CREATE TABLE "console"."receipts" (LIKE "console"."receipts_p0" INCLUDING DEFAULTS) PARTITION BY RANGE ("id");--> statement-breakpoint
-- The sequence was the old table's: it would go with receipts_p0's drop.
ALTER SEQUENCE "console"."receipts_id_seq" OWNED BY "console"."receipts"."id";--> statement-breakpoint
ALTER TABLE "console"."receipts" ADD CONSTRAINT "receipts_pkey" PRIMARY KEY ("id");--> statement-breakpoint
ALTER TABLE "console"."receipts" ADD CONSTRAINT "receipts_receiver_id_receivers_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "console"."receivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "receipts_body_json_idx" ON "console"."receipts" USING gin ("body_json" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "receipts_body_json_pending_idx" ON "console"."receipts" USING btree ("id") WHERE "body_json" is null and body is not null;--> statement-breakpoint
CREATE INDEX "receipts_body_kept_idx" ON "console"."receipts" USING btree ("received_at") WHERE body_purged_at is null;--> statement-breakpoint
CREATE INDEX "receipts_body_words_gin_idx" ON "console"."receipts" USING gin ("body_words");--> statement-breakpoint
CREATE INDEX "receipts_body_words_pending_idx" ON "console"."receipts" USING btree ("id") WHERE "body_words" is null and "body_json" is not null;--> statement-breakpoint
CREATE INDEX "receipts_message_id_receiver_id_index" ON "console"."receipts" USING btree ("message_id","receiver_id");--> statement-breakpoint
CREATE INDEX "receipts_received_at_idx" ON "console"."receipts" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "receipts_receiver_id_id_index" ON "console"."receipts" USING btree ("receiver_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "receipts_stream_idx" ON "console"."receipts" USING btree ("receiver_id","tx","id");--> statement-breakpoint
CREATE INDEX "receipts_troubled_idx" ON "console"."receipts" USING btree ("receiver_id","received_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE verdict <> 'valid' or response_status not between 200 and 299;--> statement-breakpoint
CREATE INDEX "receipts_unverified_accepted_idx" ON "console"."receipts" USING btree ("receiver_id","received_at" DESC NULLS LAST) WHERE verdict <> 'valid' and response_status between 200 and 299;--> statement-breakpoint
-- Each partition's first id, its end (the next one's first) and when it took its first and last id:
-- opened_at null for one made ahead (and for receipts_p0: since the beginning), closed_at null until
-- the next is opened. Written by the app's partition upkeep only (lib/db/partitions/receipt-slots.ts).
CREATE TABLE "console"."receipt_partitions" (
  "name" text PRIMARY KEY NOT NULL,
  "first_id" bigint NOT NULL,
  "end_id" bigint NOT NULL,
  "opened_at" timestamp (3) with time zone,
  "closed_at" timestamp (3) with time zone
);--> statement-breakpoint
DO $$
DECLARE
  slot constant bigint := 10000000000;
  bound bigint := ((SELECT greatest(last_value, 0) FROM "console"."receipts_id_seq") / slot + 1) * slot;
  first text := 'receipts_p' || (bound / slot)::text;
BEGIN
  EXECUTE format('ALTER TABLE "console"."receipts_p0" ADD CONSTRAINT "receipts_p0_range" CHECK ("id" < %s) NOT VALID', bound);
  ALTER TABLE "console"."receipts_p0" VALIDATE CONSTRAINT "receipts_p0_range";
  EXECUTE format('ALTER TABLE "console"."receipts" ATTACH PARTITION "console"."receipts_p0" FOR VALUES FROM (MINVALUE) TO (%s)', bound);
  EXECUTE format('CREATE TABLE "console".%I PARTITION OF "console"."receipts" FOR VALUES FROM (%s) TO (%s)', first, bound, bound + slot);
  PERFORM setval('"console"."receipts_id_seq"', bound, false);
  INSERT INTO "console"."receipt_partitions" (name, first_id, end_id, opened_at, closed_at) VALUES
    ('receipts_p0', 0, bound, NULL, now()), (first, bound, bound + slot, now(), NULL);
END $$;--> statement-breakpoint
CREATE TRIGGER "receipts_body_words" BEFORE INSERT OR UPDATE OF "body_json" ON "console"."receipts"
  FOR EACH ROW EXECUTE FUNCTION "console"."receipts_body_words"();--> statement-breakpoint
CREATE TRIGGER "receipts_trouble_hours_insert" AFTER INSERT ON "console"."receipts"
  REFERENCING NEW TABLE AS new_receipts
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."receipts_to_trouble_hours"();--> statement-breakpoint
CREATE TRIGGER "receipts_trouble_hours_delete" AFTER DELETE ON "console"."receipts"
  REFERENCING OLD TABLE AS old_receipts
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."receipts_recount_trouble_hours"();--> statement-breakpoint
CREATE TRIGGER "receipts_trouble_hours_truncate" AFTER TRUNCATE ON "console"."receipts"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."receipts_truncate_trouble_hours"();--> statement-breakpoint
-- Forwards follow: their foreign key named the old table (now receipts_p0), it names the partitioned one.
ALTER TABLE "console"."forwards" DROP CONSTRAINT "forwards_receipt_id_receipts_id_fk";--> statement-breakpoint
ALTER TABLE "console"."forwards" ADD CONSTRAINT "forwards_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "console"."receipts"("id") ON DELETE cascade ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "console"."forwards" VALIDATE CONSTRAINT "forwards_receipt_id_receipts_id_fk";
