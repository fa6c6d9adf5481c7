-- Hand-written (issue 52): service.attempts becomes a table partitioned by range of created_at, so that
-- retention can drop a day of attempts instead of deleting them row by row. Every row stays: the old
-- table becomes the first partition, attempts_p0, from MINVALUE to the moment of this migration (the
-- cutover). Its range is proved first by a CHECK constraint (added NOT VALID, then validated: a scan
-- that lets reads through), so ATTACH finds it implied and reads no row under its lock; its indexes
-- match the new table's and are taken over, not built again. Only its primary key is built anew:
-- partitioning needs the partition key in it, so it is (id, created_at). The heavy steps come first
-- and lock attempts alone (ingest writes messages, deliveries and receipts, never attempts); the foreign
-- key to service.deliveries, which locks that table against writes until the commit, comes last.
-- The partitions after the cutover are the app's (lib/db/partitions): this migration makes the first,
-- to the next UTC midnight, so no attempt waits for the app's upkeep.
ALTER TABLE "service"."attempts" RENAME TO "attempts_p0";--> statement-breakpoint
DROP TRIGGER "attempts_rollups" ON "service"."attempts_p0";--> statement-breakpoint
ALTER INDEX "service"."attempts_webhook_id_message_id_created_at_id_index" RENAME TO "attempts_p0_webhook_id_message_id_created_at_id_index";--> statement-breakpoint
ALTER INDEX "service"."attempts_not_rolled_up_idx" RENAME TO "attempts_p0_not_rolled_up_idx";--> statement-breakpoint
ALTER INDEX "service"."attempts_webhook_time_idx" RENAME TO "attempts_p0_webhook_time_idx";--> statement-breakpoint
ALTER INDEX "service"."attempts_webhook_success_idx" RENAME TO "attempts_p0_webhook_success_idx";--> statement-breakpoint
ALTER INDEX "service"."attempts_response_kept_idx" RENAME TO "attempts_p0_response_kept_idx";--> statement-breakpoint
ALTER INDEX "service"."attempts_account_response_kept_idx" RENAME TO "attempts_p0_account_response_kept_idx";--> statement-breakpoint
ALTER TABLE "service"."attempts_p0" DROP CONSTRAINT "attempts_pkey";--> statement-breakpoint
ALTER TABLE "service"."attempts_p0" ADD CONSTRAINT "attempts_p0_pkey" PRIMARY KEY ("id", "created_at");--> statement-breakpoint
CREATE TABLE "service"."attempts" (LIKE "service"."attempts_p0" INCLUDING DEFAULTS) PARTITION BY RANGE ("created_at");--> statement-breakpoint
ALTER TABLE "service"."attempts" ADD CONSTRAINT "attempts_id_created_at_pk" PRIMARY KEY ("id", "created_at");--> statement-breakpoint
CREATE INDEX "attempts_webhook_id_message_id_created_at_id_index" ON "service"."attempts" USING btree ("webhook_id","message_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "attempts_not_rolled_up_idx" ON "service"."attempts" USING btree ("webhook_id") WHERE not rolled_up;--> statement-breakpoint
CREATE INDEX "attempts_webhook_time_idx" ON "service"."attempts" USING btree ("webhook_id","created_at","status","response_duration_ms");--> statement-breakpoint
CREATE INDEX "attempts_webhook_success_idx" ON "service"."attempts" USING btree ("webhook_id","created_at") WHERE status = 'success';--> statement-breakpoint
CREATE INDEX "attempts_response_kept_idx" ON "service"."attempts" USING btree ("created_at") WHERE response_purged_at is null;--> statement-breakpoint
CREATE INDEX "attempts_account_response_kept_idx" ON "service"."attempts" USING btree ("account_id","created_at") WHERE response_purged_at is null;--> statement-breakpoint
DO $$
DECLARE
  cutover timestamptz := date_trunc('milliseconds', now());
  midnight timestamptz := (date_trunc('day', now() AT TIME ZONE 'UTC') + interval '1 day') AT TIME ZONE 'UTC';
  first text := 'attempts_p' || to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD');
BEGIN
  EXECUTE format('ALTER TABLE "service"."attempts_p0" ADD CONSTRAINT "attempts_p0_range" CHECK ("created_at" < %L) NOT VALID', cutover);
  ALTER TABLE "service"."attempts_p0" VALIDATE CONSTRAINT "attempts_p0_range";
  EXECUTE format('CREATE TABLE "service".%I PARTITION OF "service"."attempts" FOR VALUES FROM (%L) TO (%L)', first, cutover, midnight);
  EXECUTE format('ALTER TABLE "service"."attempts" ATTACH PARTITION "service"."attempts_p0" FOR VALUES FROM (MINVALUE) TO (%L)', cutover);
END $$;--> statement-breakpoint
CREATE TRIGGER "attempts_rollups" AFTER INSERT ON "service"."attempts"
  REFERENCING NEW TABLE AS new_attempts
  FOR EACH STATEMENT EXECUTE FUNCTION "service"."attempts_to_rollups"();--> statement-breakpoint
ALTER TABLE "service"."attempts" ADD CONSTRAINT "attempts_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "service"."deliveries"("id") ON DELETE no action ON UPDATE no action;
