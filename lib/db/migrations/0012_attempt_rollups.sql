CREATE TABLE "service"."attempt_rollups" (
	"webhook_id" text NOT NULL,
	"bucket_seconds" integer NOT NULL,
	"bucket_start" timestamp (3) with time zone NOT NULL,
	"latency_bucket" integer NOT NULL,
	"attempts" integer NOT NULL,
	"successes" integer NOT NULL,
	CONSTRAINT "attempt_rollups_webhook_id_bucket_seconds_bucket_start_latency_bucket_pk" PRIMARY KEY("webhook_id","bucket_seconds","bucket_start","latency_bucket")
);
--> statement-breakpoint
-- Attempts stored until now are not in the rollups yet (the backfill adds them); new ones are.
ALTER TABLE "service"."attempts" ADD COLUMN "rolled_up" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "service"."attempts" ALTER COLUMN "rolled_up" SET DEFAULT true;--> statement-breakpoint
CREATE INDEX "attempts_not_rolled_up_idx" ON "service"."attempts" USING btree ("webhook_id") WHERE not rolled_up;--> statement-breakpoint
-- The latency bucket of a response time: 0 under 1 ms, then k for [1.25^(k-1), 1.25^k) ms, up to 64
-- (lib/service/stats/latency-buckets.ts reads percentiles back from them).
CREATE FUNCTION "service"."latency_bucket"(ms integer) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN ms < 1 THEN 0 ELSE least(64, 1 + floor(ln(ms) / ln(1.25))::integer) END $$;--> statement-breakpoint
-- Adds attempts (as parallel arrays) to the rollups of every bucket size the stats read.
CREATE FUNCTION "service"."add_to_attempt_rollups"(w text[], t timestamptz[], ok boolean[], ms integer[]) RETURNS void
  LANGUAGE sql
  AS $$
    INSERT INTO service.attempt_rollups AS r (webhook_id, bucket_seconds, bucket_start, latency_bucket, attempts, successes)
    SELECT a.w, s.secs, to_timestamp(floor(extract(epoch FROM a.t) / s.secs) * s.secs), service.latency_bucket(a.ms),
           count(*)::integer, (count(*) FILTER (WHERE a.ok))::integer
      FROM unnest(w, t, ok, ms) AS a(w, t, ok, ms)
     CROSS JOIN (VALUES (300), (3600), (21600)) AS s(secs)
     GROUP BY 1, 2, 3, 4
    ON CONFLICT (webhook_id, bucket_seconds, bucket_start, latency_bucket)
    DO UPDATE SET attempts = r.attempts + excluded.attempts, successes = r.successes + excluded.successes
  $$;--> statement-breakpoint
-- In the statement that inserts attempts: their rollups, in one aggregated upsert.
CREATE FUNCTION "service"."attempts_to_rollups"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    PERFORM service.add_to_attempt_rollups(array_agg(webhook_id), array_agg(created_at), array_agg(status = 'success'), array_agg(response_duration_ms))
       FROM new_attempts WHERE rolled_up;
    RETURN NULL;
  END
  $$;--> statement-breakpoint
CREATE TRIGGER "attempts_rollups" AFTER INSERT ON "service"."attempts"
  REFERENCING NEW TABLE AS new_attempts
  FOR EACH STATEMENT EXECUTE FUNCTION "service"."attempts_to_rollups"();
