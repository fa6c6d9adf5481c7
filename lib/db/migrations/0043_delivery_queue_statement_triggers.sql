-- Hand-written (issue 52): the delivery queue's triggers (migration 0041) fire once per statement on service.deliveries,
-- reading the statement's rows from its transition tables, as the attempts' rollups do (0012, 0037), not once per row: a
-- claim, an outcome batch or an enqueue of n deliveries ran the PL/pgSQL function n times (14 % of the store's samples
-- under perf at the delivery bench), and now runs it once, with one or two set statements on the queue.
-- What the queue holds is unchanged: the deliveries not settled (pending or sending), with their status, due time and
-- lease, written in the statement that writes the delivery. A row written pending or sending enters (or takes over a
-- queue row of its id left behind, as before); a row updated follows (its queue row rewritten only when it differs) or
-- leaves once settled; a row deleted leaves. A settled delivery updated again (a resend's count) probes the queue's key
-- and changes nothing, where the row triggers' WHEN skipped it.
-- Statement triggers on a partitioned table fire for statements that name the table, not one of its partitions; every
-- writer of deliveries names service.deliveries (as the rollups' already require of the attempts' writers).
-- The three row triggers and their function go, and the statement triggers come, in the migration's one transaction:
-- DROP TRIGGER locks service.deliveries (reads too) until the commit, a moment, so no write falls between.
DROP TRIGGER "delivery_queue_insert" ON "service"."deliveries";--> statement-breakpoint
DROP TRIGGER "delivery_queue_update" ON "service"."deliveries";--> statement-breakpoint
DROP TRIGGER "delivery_queue_delete" ON "service"."deliveries";--> statement-breakpoint
DROP FUNCTION "service"."delivery_queue_sync"();--> statement-breakpoint
CREATE FUNCTION "service"."delivery_queue_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM "service"."delivery_queue" q USING old_deliveries o WHERE q.id = o.id AND o.status IN ('pending', 'sending');
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "service"."delivery_queue" q USING new_deliveries n WHERE q.id = n.id AND n.status NOT IN ('pending', 'sending');
  END IF;
  INSERT INTO "service"."delivery_queue" AS q (id, created_at, webhook_id, status, next_attempt_at, lease_until)
    SELECT id, created_at, webhook_id, status, next_attempt_at, lease_until FROM new_deliveries WHERE status IN ('pending', 'sending')
    ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, webhook_id = excluded.webhook_id, status = excluded.status,
      next_attempt_at = excluded.next_attempt_at, lease_until = excluded.lease_until
    WHERE (q.created_at, q.webhook_id, q.status, q.next_attempt_at, q.lease_until)
      IS DISTINCT FROM (excluded.created_at, excluded.webhook_id, excluded.status, excluded.next_attempt_at, excluded.lease_until);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "delivery_queue_insert" AFTER INSERT ON "service"."deliveries"
  REFERENCING NEW TABLE AS new_deliveries
  FOR EACH STATEMENT EXECUTE FUNCTION "service"."delivery_queue_sync"();--> statement-breakpoint
CREATE TRIGGER "delivery_queue_update" AFTER UPDATE ON "service"."deliveries"
  REFERENCING NEW TABLE AS new_deliveries
  FOR EACH STATEMENT EXECUTE FUNCTION "service"."delivery_queue_sync"();--> statement-breakpoint
CREATE TRIGGER "delivery_queue_delete" AFTER DELETE ON "service"."deliveries"
  REFERENCING OLD TABLE AS old_deliveries
  FOR EACH STATEMENT EXECUTE FUNCTION "service"."delivery_queue_sync"();
