-- Hand-written (issue 52): the delivery queue, service.delivery_queue, a small unpartitioned table of the deliveries not
-- settled yet (pending or sending), beside the partitioned history in service.deliveries (migration 0039). The worker's
-- claim filters on status and due time, not created_at, so on the partitioned table it planned and probed every partition
-- (a year of days is 372 on PostgreSQL): it now finds its deliveries here and then touches only their partitions
-- (lib/service/delivery/claim.ts says how, and docs/PERFORMANCE.md what it measured).
-- service.deliveries stays the truth, and every statement that changes a delivery goes on writing it there as before (the
-- enqueue, the worker, a resume's unparking, a cap's reset, retry-pending, a recover run, replay-missing, a resend, an
-- erasure, a webhook's deletion, retention): the queue is kept by triggers on service.deliveries, in the same statement,
-- so it cannot miss a writer, nor hold a row its delivery no longer has. A delivery enters when written pending or
-- sending, follows its status, due time and lease, and leaves when it settles (success or failed) or is deleted.
-- The triggers fire only for the rows they change: a settled delivery's later updates (a resend's count) skip them. A
-- delivery written again with the id of a queue row left behind (its partition dropped by hand under it, and its rows
-- copied back) takes that row over.
-- deliveries_due_idx and deliveries_leased_idx, which only the claim and the queue gauge read, are dropped: their twins
-- are the queue's, and each claim, outcome and renewal no longer updates them in the partition's index.
-- The queue is filled from the unsettled deliveries under a lock that holds off their writers until the commit (writes
-- only: reads go on), so none is changed between the fill and the triggers.
LOCK TABLE "service"."deliveries" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE TABLE "service"."delivery_queue" (
	"id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"webhook_id" text NOT NULL,
	"status" text NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"lease_until" timestamp (3) with time zone
);--> statement-breakpoint
CREATE INDEX "delivery_queue_due_idx" ON "service"."delivery_queue" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE INDEX "delivery_queue_leased_idx" ON "service"."delivery_queue" USING btree ("lease_until") WHERE status = 'sending';--> statement-breakpoint
CREATE FUNCTION "service"."delivery_queue_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR NEW.status NOT IN ('pending', 'sending') THEN
    DELETE FROM "service"."delivery_queue" WHERE id = OLD.id;
  ELSIF TG_OP = 'UPDATE' AND OLD.status IN ('pending', 'sending') THEN
    UPDATE "service"."delivery_queue" SET status = NEW.status, next_attempt_at = NEW.next_attempt_at, lease_until = NEW.lease_until WHERE id = NEW.id;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NOT FOUND AND NEW.status IN ('pending', 'sending')) THEN
    INSERT INTO "service"."delivery_queue" (id, created_at, webhook_id, status, next_attempt_at, lease_until)
      VALUES (NEW.id, NEW.created_at, NEW.webhook_id, NEW.status, NEW.next_attempt_at, NEW.lease_until)
      ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, webhook_id = excluded.webhook_id, status = excluded.status,
        next_attempt_at = excluded.next_attempt_at, lease_until = excluded.lease_until;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "delivery_queue_insert" AFTER INSERT ON "service"."deliveries"
  FOR EACH ROW WHEN (NEW.status IN ('pending', 'sending')) EXECUTE FUNCTION "service"."delivery_queue_sync"();--> statement-breakpoint
CREATE TRIGGER "delivery_queue_update" AFTER UPDATE ON "service"."deliveries"
  FOR EACH ROW WHEN ((OLD.status IN ('pending', 'sending') OR NEW.status IN ('pending', 'sending'))
    AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.next_attempt_at IS DISTINCT FROM NEW.next_attempt_at OR OLD.lease_until IS DISTINCT FROM NEW.lease_until))
  EXECUTE FUNCTION "service"."delivery_queue_sync"();--> statement-breakpoint
CREATE TRIGGER "delivery_queue_delete" AFTER DELETE ON "service"."deliveries"
  FOR EACH ROW WHEN (OLD.status IN ('pending', 'sending')) EXECUTE FUNCTION "service"."delivery_queue_sync"();--> statement-breakpoint
INSERT INTO "service"."delivery_queue" (id, created_at, webhook_id, status, next_attempt_at, lease_until)
  SELECT id, created_at, webhook_id, status, next_attempt_at, lease_until FROM "service"."deliveries" WHERE status IN ('pending', 'sending');--> statement-breakpoint
DROP INDEX "service"."deliveries_due_idx";--> statement-breakpoint
DROP INDEX "service"."deliveries_leased_idx";
