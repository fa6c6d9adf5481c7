-- The service's purge deletes idempotency keys past their 24-hour window, oldest first (lib/service/retention/
-- expire-idempotency-keys.ts); before, an expired key left only when the same key came again.
CREATE INDEX "idempotency_keys_created_at_index" ON "service"."idempotency_keys" USING btree ("created_at");