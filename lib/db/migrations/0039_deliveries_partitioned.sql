-- Hand-written (issue 52): service.deliveries becomes a table partitioned by range of created_at, as service.attempts
-- is since 0037, so that retention can drop a day of deliveries instead of deleting them row by row. Every row stays:
-- the old table becomes the first partition, deliveries_p0, from MINVALUE to the moment of this migration (the
-- cutover), its range proved first by a CHECK added NOT VALID and then validated, so ATTACH finds it implied and reads
-- no row; the indexes that keep their columns are taken over by the new table's, not built again.
-- Keys, as partitioning requires the partition key in every unique index:
--   primary key  (id, created_at). Built anew on deliveries_p0 (one read of the table), unless an operator built it
--                before the upgrade, CONCURRENTLY, under the name this uses (IF NOT EXISTS; docs/OPERATIONS.md).
--   one delivery per (message, webhook): unique (message_id, webhook_id, created_at), built anew too (the same). It holds the same
--                pairs as before: a delivery's created_at is its message's (lib/service/delivery/enqueue.ts writes every
--                delivery with it, replay-missing included), so a pair has one created_at; replay-missing's ON CONFLICT
--                names the three columns.
--   attempts → deliveries: the foreign key is dropped, not made composite. A composite key needs the delivery's
--                created_at in every attempt: a column to fill in every existing attempt (a rewrite of the largest
--                table, locked) and one more lookup per attempt on the worker's hot path; and a partition of a table
--                that is referenced cannot be detached while rows of the referencing table may point at it, so each
--                drop of deliveries would read attempts. What the key guarded is kept by the writers: an attempt is
--                written only by the worker for a delivery it holds claimed (its lease, in the same statement that ends
--                it) and by a resend that reads the delivery's row first, in the same transaction; deliveries leave
--                with their attempts (the messages step deletes both in one statement; retention drops a deliveries
--                partition after the attempts of its range, and first deletes its deliveries' later attempts).
--   deliveries → messages and → webhooks: kept, on the partitioned table (deliveries_p0's own are taken over).
-- The migration locks service.deliveries and service.attempts (and, for the foreign keys at the end, writes to messages
-- and webhooks) until it commits: ingest and the worker wait for it (docs/OPERATIONS.md: how long, on 1M deliveries).
-- It takes those locks first, messages and webhooks before deliveries and attempts, as ingest's statements take them:
-- taken as the statements reach them, a grant of a process still running (another instance, a worker) that held
-- messages and waited for deliveries deadlocked with the foreign key's lock on messages at the end, and PostgreSQL
-- aborted the migration.
-- The partitions after the cutover are the app's (lib/db/partitions): this migration makes the first, to the next UTC
-- midnight, so no delivery waits for the app's upkeep.
LOCK TABLE "service"."messages", "service"."webhooks" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
LOCK TABLE "service"."deliveries", "service"."attempts" IN ACCESS EXCLUSIVE MODE;--> statement-breakpoint
ALTER TABLE "service"."attempts" DROP CONSTRAINT "attempts_delivery_id_deliveries_id_fk";--> statement-breakpoint
ALTER TABLE "service"."deliveries" RENAME TO "deliveries_p0";--> statement-breakpoint
ALTER INDEX "service"."deliveries_due_idx" RENAME TO "deliveries_p0_due_idx";--> statement-breakpoint
ALTER INDEX "service"."deliveries_leased_idx" RENAME TO "deliveries_p0_leased_idx";--> statement-breakpoint
ALTER INDEX "service"."deliveries_recover_run_idx" RENAME TO "deliveries_p0_recover_run_idx";--> statement-breakpoint
ALTER INDEX "service"."deliveries_retrying_idx" RENAME TO "deliveries_p0_retrying_idx";--> statement-breakpoint
ALTER INDEX "service"."deliveries_webhook_id_created_at_message_id_index" RENAME TO "deliveries_p0_webhook_id_created_at_message_id_index";--> statement-breakpoint
ALTER INDEX "service"."deliveries_webhook_status_idx" RENAME TO "deliveries_p0_webhook_status_idx";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "deliveries_p0_pkey" ON "service"."deliveries_p0" USING btree ("id","created_at");--> statement-breakpoint
ALTER TABLE "service"."deliveries_p0" DROP CONSTRAINT "deliveries_pkey";--> statement-breakpoint
ALTER TABLE "service"."deliveries_p0" ADD CONSTRAINT "deliveries_p0_pkey" PRIMARY KEY USING INDEX "deliveries_p0_pkey";--> statement-breakpoint
DROP INDEX "service"."deliveries_message_id_webhook_id_index";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "deliveries_p0_message_id_webhook_id_created_at_index" ON "service"."deliveries_p0" USING btree ("message_id","webhook_id","created_at");--> statement-breakpoint
CREATE TABLE "service"."deliveries" (LIKE "service"."deliveries_p0" INCLUDING DEFAULTS) PARTITION BY RANGE ("created_at");--> statement-breakpoint
ALTER TABLE "service"."deliveries" ADD CONSTRAINT "deliveries_id_created_at_pk" PRIMARY KEY ("id", "created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_message_id_webhook_id_created_at_index" ON "service"."deliveries" USING btree ("message_id","webhook_id","created_at");--> statement-breakpoint
CREATE INDEX "deliveries_recover_run_idx" ON "service"."deliveries" USING btree ("recover_run_id","status") WHERE recover_run_id is not null;--> statement-breakpoint
CREATE INDEX "deliveries_webhook_id_created_at_message_id_index" ON "service"."deliveries" USING btree ("webhook_id","created_at" DESC NULLS LAST,"message_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "service"."deliveries" USING btree ("next_attempt_at") WHERE status in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "deliveries_webhook_status_idx" ON "service"."deliveries" USING btree ("webhook_id","status","created_at" DESC NULLS LAST,"message_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "deliveries_leased_idx" ON "service"."deliveries" USING btree ("lease_until") WHERE status = 'sending';--> statement-breakpoint
CREATE INDEX "deliveries_retrying_idx" ON "service"."deliveries" USING btree ("webhook_id","created_at" DESC NULLS LAST,"message_id" DESC NULLS LAST) WHERE status in ('pending', 'sending') and attempt_count >= 2;--> statement-breakpoint
DO $$
DECLARE
  cutover timestamptz := date_trunc('milliseconds', now());
  midnight timestamptz := (date_trunc('day', now() AT TIME ZONE 'UTC') + interval '1 day') AT TIME ZONE 'UTC';
  first text := 'deliveries_p' || to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD');
BEGIN
  EXECUTE format('ALTER TABLE "service"."deliveries_p0" ADD CONSTRAINT "deliveries_p0_range" CHECK ("created_at" < %L) NOT VALID', cutover);
  ALTER TABLE "service"."deliveries_p0" VALIDATE CONSTRAINT "deliveries_p0_range";
  EXECUTE format('CREATE TABLE "service".%I PARTITION OF "service"."deliveries" FOR VALUES FROM (%L) TO (%L)', first, cutover, midnight);
  EXECUTE format('ALTER TABLE "service"."deliveries" ATTACH PARTITION "service"."deliveries_p0" FOR VALUES FROM (MINVALUE) TO (%L)', cutover);
END $$;--> statement-breakpoint
ALTER TABLE "service"."deliveries" ADD CONSTRAINT "deliveries_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "service"."messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."deliveries" ADD CONSTRAINT "deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "service"."webhooks"("id") ON DELETE no action ON UPDATE no action;
