-- Hand-written (issue 52): the delivery queue's statement triggers (migration 0043) reach the queue by its key whatever
-- the sizes at hand. PL/pgSQL plans a trigger's statements once a connection, with the statement of that moment: 0043's
-- deletes joined the statement's rows to the queue, and planned at a statement of many rows (a settling of thousands)
-- while the queue was small, the join hashed the whole queue, read again by every later statement on that connection
-- however far the queue had grown (a backlog: 3-6 ms a statement at 20,000 queued, against a probe of its key). The
-- deletes now name the ids (= ANY of an array of them), and the function plans without sequential scans, so each reaches
-- the queue through its key, as 0041's row triggers did, whatever the queue's size when it was planned.
-- What the queue holds is unchanged (0043 says what each statement does).
CREATE OR REPLACE FUNCTION "service"."delivery_queue_sync"() RETURNS trigger LANGUAGE plpgsql SET enable_seqscan = off AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM "service"."delivery_queue" WHERE id = ANY (ARRAY(SELECT id FROM old_deliveries WHERE status IN ('pending', 'sending')));
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "service"."delivery_queue" WHERE id = ANY (ARRAY(SELECT id FROM new_deliveries WHERE status NOT IN ('pending', 'sending')));
  END IF;
  INSERT INTO "service"."delivery_queue" AS q (id, created_at, webhook_id, status, next_attempt_at, lease_until)
    SELECT id, created_at, webhook_id, status, next_attempt_at, lease_until FROM new_deliveries WHERE status IN ('pending', 'sending')
    ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, webhook_id = excluded.webhook_id, status = excluded.status,
      next_attempt_at = excluded.next_attempt_at, lease_until = excluded.lease_until
    WHERE (q.created_at, q.webhook_id, q.status, q.next_attempt_at, q.lease_until)
      IS DISTINCT FROM (excluded.created_at, excluded.webhook_id, excluded.status, excluded.next_attempt_at, excluded.lease_until);
  RETURN NULL;
END $$;
