-- Hand-written note: receipts_troubled_idx gains the id, so a receiver's troubled arrivals come out in
-- the problems page's whole order (received_at, id; both newest first) with no sort: the page reads
-- each receiver's range lazily, merged (troubled-receipts.ts), not `limit` rows of every receiver.
DROP INDEX "console"."receipts_troubled_idx";--> statement-breakpoint
CREATE INDEX "receipts_troubled_idx" ON "console"."receipts" USING btree ("receiver_id","received_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "console"."receipts"."verdict" <> 'valid' or "console"."receipts"."response_status" not between 200 and 299;