ALTER TABLE "service"."attempts" ADD COLUMN "response_erased" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "service"."deliveries" ADD COLUMN "stop_reason" text;--> statement-breakpoint
ALTER TABLE "service"."deliveries" ADD COLUMN "stopped_at" timestamp (3) with time zone;--> statement-breakpoint
-- Hand-written: what erasures made before this migration did, told as later ones tell it. An
-- erasure emptied its messages' answers in its own transaction, so their purge time is the
-- message's erasure time (retention's purges are other times); a delivery of an erased message that
-- ended failed at or after its erasure with retries left was stopped by it. Only erased messages are
-- read (few), each delivery and attempt through the (message, webhook) indexes.
UPDATE "service"."attempts" a SET "response_erased" = true
  FROM "service"."messages" m JOIN "service"."deliveries" d ON d."message_id" = m."id"
 WHERE m."erased_at" IS NOT NULL AND a."webhook_id" = d."webhook_id" AND a."message_id" = d."message_id"
   AND a."response_purged_at" = m."erased_at";--> statement-breakpoint
UPDATE "service"."deliveries" d SET "stop_reason" = 'donor_erased', "stopped_at" = d."updated_at"
  FROM "service"."messages" m
 WHERE m."erased_at" IS NOT NULL AND d."message_id" = m."id" AND d."status" = 'failed'
   AND d."scheduled_attempt_count" < 8 AND d."updated_at" >= m."erased_at";
