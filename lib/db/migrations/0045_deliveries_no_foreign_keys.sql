-- Hand-written (issue 52; the statements as `npx drizzle-kit generate` made them, the locks first): service.deliveries
-- loses its foreign keys to service.messages (message_id, created_at) and to service.webhooks (webhook_id), as it lost
-- attempts → deliveries in 0039. Partitioned, both keys made retention's drops lock what ingest writes: detaching a
-- deliveries partition took SHARE ROW EXCLUSIVE on webhooks and on every messages partition (a grant's insert waited),
-- dropping it ACCESS EXCLUSIVE on the same (reads waited), for 0.43-0.51 s and 0.10-0.15 s with 365 messages partitions
-- (24-34 ms and 7-58 ms without the keys; PostgreSQL 15, pg_locks), and a messages partition's detach locked deliveries
-- in turn. And every delivery's check of its message was planned afresh, each time (~0.05 ms a delivery, ten a grant):
-- PostgreSQL never keeps a generic plan for a key into a partitioned table.
-- What the keys guarded is kept by the writers:
--   a delivery is written only with its message: lib/service/delivery/enqueue.ts writes a message and its deliveries in
--   one statement (every event, the grant's included), to webhooks that statement reads (enabled, not deleted), with the
--   message's created_at; replay-missing writes deliveries of messages it reads and locks FOR KEY SHARE in its statement,
--   as the key's check did, so retention's messages step (FOR UPDATE SKIP LOCKED) passes them by, and a message it
--   deleted first is not read. No statement changes a delivery's message_id, webhook_id or created_at.
--   a message leaves with its deliveries: retention's messages step deletes attempts, deliveries and messages in one
--   statement; its partition steps drop attempts, then deliveries, then messages, a messages partition only once no
--   deliveries partition of its range is left (lib/service/retention/drop-messages.ts), and a delivery of a range with
--   no partition is refused (no DEFAULT partition). Erasure and the payload purge update, never delete.
--   a webhook is never deleted: DELETE /v1/webhooks/{id} sets deleted_at; no account is deleted either.
-- The drop takes ACCESS EXCLUSIVE on deliveries and on the tables it referenced; the locks are taken first, messages and
-- webhooks before deliveries, in the order ingest's statements take them (0039 says why: a grant holding messages and
-- waiting for deliveries deadlocked with a migration that took them as its statements reached them). Held for an instant.
LOCK TABLE "service"."messages", "service"."webhooks" IN ACCESS EXCLUSIVE MODE;--> statement-breakpoint
LOCK TABLE "service"."deliveries" IN ACCESS EXCLUSIVE MODE;--> statement-breakpoint
ALTER TABLE "service"."deliveries" DROP CONSTRAINT "deliveries_webhook_id_webhooks_id_fk";--> statement-breakpoint
ALTER TABLE "service"."deliveries" DROP CONSTRAINT "deliveries_message_id_created_at_messages_id_created_at_fk";
