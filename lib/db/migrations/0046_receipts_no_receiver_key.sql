-- Hand-written (issue 52; the statement as `npx drizzle-kit generate` made it, the locks first): console.receipts loses its
-- foreign key to console.receivers, as service.deliveries lost theirs in 0045. Partitioned, the key made retention's drop
-- of a receipts partition stop ingest: detached, the partition keeps a key of its own, with its action triggers on
-- receivers, and the drop removes them under ACCESS EXCLUSIVE on receivers (PostgreSQL 15, pg_locks). Every receipt's
-- insert checks its receiver under that key, and ingest reads the receiver by its slug: both queued behind the drop
-- until it committed, and everything after them behind those (tests/integration/receipts-detach-locks.test.ts: an
-- arrival beside a drop held open hits a 300 ms lock_timeout at 0045, passes at 0046).
-- What the key guarded is kept by the writers: a receipt is written only by ingest (lib/console/ingest/record-receipt.ts)
-- for the receiver it has just read by its slug, and receivers are never deleted (no statement deletes one); no statement
-- changes a receipt's receiver_id. forwards → receipts stays: forwards are written by staff, never by ingest, and
-- retention deletes a partition's forwards before its drop (lib/console/retention/drop-receipts.ts).
-- The drop takes ACCESS EXCLUSIVE on receipts and on receivers; receivers is locked first, then receipts, in the order
-- ingest takes them (0039 says why). Held for an instant.
LOCK TABLE "console"."receivers" IN ACCESS EXCLUSIVE MODE;--> statement-breakpoint
LOCK TABLE "console"."receipts" IN ACCESS EXCLUSIVE MODE;--> statement-breakpoint
ALTER TABLE "console"."receipts" DROP CONSTRAINT "receipts_receiver_id_receivers_id_fk";
