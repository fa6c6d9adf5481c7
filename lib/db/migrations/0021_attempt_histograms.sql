CREATE TABLE "service"."attempt_histograms" (
	"webhook_id" text NOT NULL,
	"bucket_seconds" integer NOT NULL,
	"bucket_start" timestamp (3) with time zone NOT NULL,
	"attempts" integer NOT NULL,
	"successes" integer NOT NULL,
	"latency" integer[] NOT NULL,
	CONSTRAINT "attempt_histograms_webhook_id_bucket_seconds_bucket_start_pk" PRIMARY KEY("webhook_id","bucket_seconds","bucket_start")
);
--> statement-breakpoint
-- Hand-written: one row a (webhook, bucket size, bucket) with its latency histogram as an array,
-- in place of a row per latency bucket (service.attempt_rollups, migration 0012): the stats read a
-- bucket's row whatever the spread of its response times, so a busy day costs what a quiet one does.
-- `latency[k + 1]` counts latency bucket k (service.latency_bucket, 0–64). The arrays are built and
-- added element by element in plain expressions (65 of them, written out): a helper function with
-- a query inside (unnest, generate_series) cost ~3× the whole upsert, planned again at every call.

-- The rows counted so far, one per bucket now.
INSERT INTO "service"."attempt_histograms" (webhook_id, bucket_seconds, bucket_start, attempts, successes, latency)
SELECT webhook_id, bucket_seconds, bucket_start, sum(attempts)::integer, sum(successes)::integer,
       ARRAY[coalesce(sum(attempts) FILTER (WHERE latency_bucket = 0), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 1), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 2), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 3), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 4), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 5), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 6), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 7), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 8), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 9), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 10), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 11), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 12), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 13), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 14), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 15), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 16), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 17), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 18), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 19), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 20), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 21), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 22), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 23), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 24), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 25), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 26), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 27), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 28), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 29), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 30), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 31), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 32), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 33), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 34), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 35), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 36), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 37), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 38), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 39), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 40), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 41), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 42), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 43), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 44), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 45), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 46), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 47), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 48), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 49), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 50), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 51), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 52), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 53), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 54), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 55), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 56), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 57), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 58), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 59), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 60), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 61), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 62), 0), coalesce(sum(attempts) FILTER (WHERE latency_bucket = 63), 0),
         coalesce(sum(attempts) FILTER (WHERE latency_bucket = 64), 0)]::integer[]
  FROM "service"."attempt_rollups"
 GROUP BY webhook_id, bucket_seconds, bucket_start;--> statement-breakpoint
-- The function the attempts' trigger and the backfill call (same signature) now writes here. In
-- PL/pgSQL, so its statement is planned once per connection rather than at every call (as a SQL
-- function's body is): with 65 aggregates and 65 sums, planning was most of its cost.
CREATE OR REPLACE FUNCTION "service"."add_to_attempt_rollups"(w text[], t timestamptz[], ok boolean[], ms integer[]) RETURNS void
  LANGUAGE plpgsql
  AS $$ BEGIN
    INSERT INTO service.attempt_histograms AS r (webhook_id, bucket_seconds, bucket_start, attempts, successes, latency)
    SELECT b.w, b.secs, b.start, count(*)::integer, (count(*) FILTER (WHERE b.ok))::integer,
           ARRAY[count(*) FILTER (WHERE b.k = 0), count(*) FILTER (WHERE b.k = 1), count(*) FILTER (WHERE b.k = 2), count(*) FILTER (WHERE b.k = 3), count(*) FILTER (WHERE b.k = 4),
                   count(*) FILTER (WHERE b.k = 5), count(*) FILTER (WHERE b.k = 6), count(*) FILTER (WHERE b.k = 7), count(*) FILTER (WHERE b.k = 8), count(*) FILTER (WHERE b.k = 9),
                   count(*) FILTER (WHERE b.k = 10), count(*) FILTER (WHERE b.k = 11), count(*) FILTER (WHERE b.k = 12), count(*) FILTER (WHERE b.k = 13), count(*) FILTER (WHERE b.k = 14),
                   count(*) FILTER (WHERE b.k = 15), count(*) FILTER (WHERE b.k = 16), count(*) FILTER (WHERE b.k = 17), count(*) FILTER (WHERE b.k = 18), count(*) FILTER (WHERE b.k = 19),
                   count(*) FILTER (WHERE b.k = 20), count(*) FILTER (WHERE b.k = 21), count(*) FILTER (WHERE b.k = 22), count(*) FILTER (WHERE b.k = 23), count(*) FILTER (WHERE b.k = 24),
                   count(*) FILTER (WHERE b.k = 25), count(*) FILTER (WHERE b.k = 26), count(*) FILTER (WHERE b.k = 27), count(*) FILTER (WHERE b.k = 28), count(*) FILTER (WHERE b.k = 29),
                   count(*) FILTER (WHERE b.k = 30), count(*) FILTER (WHERE b.k = 31), count(*) FILTER (WHERE b.k = 32), count(*) FILTER (WHERE b.k = 33), count(*) FILTER (WHERE b.k = 34),
                   count(*) FILTER (WHERE b.k = 35), count(*) FILTER (WHERE b.k = 36), count(*) FILTER (WHERE b.k = 37), count(*) FILTER (WHERE b.k = 38), count(*) FILTER (WHERE b.k = 39),
                   count(*) FILTER (WHERE b.k = 40), count(*) FILTER (WHERE b.k = 41), count(*) FILTER (WHERE b.k = 42), count(*) FILTER (WHERE b.k = 43), count(*) FILTER (WHERE b.k = 44),
                   count(*) FILTER (WHERE b.k = 45), count(*) FILTER (WHERE b.k = 46), count(*) FILTER (WHERE b.k = 47), count(*) FILTER (WHERE b.k = 48), count(*) FILTER (WHERE b.k = 49),
                   count(*) FILTER (WHERE b.k = 50), count(*) FILTER (WHERE b.k = 51), count(*) FILTER (WHERE b.k = 52), count(*) FILTER (WHERE b.k = 53), count(*) FILTER (WHERE b.k = 54),
                   count(*) FILTER (WHERE b.k = 55), count(*) FILTER (WHERE b.k = 56), count(*) FILTER (WHERE b.k = 57), count(*) FILTER (WHERE b.k = 58), count(*) FILTER (WHERE b.k = 59),
                   count(*) FILTER (WHERE b.k = 60), count(*) FILTER (WHERE b.k = 61), count(*) FILTER (WHERE b.k = 62), count(*) FILTER (WHERE b.k = 63), count(*) FILTER (WHERE b.k = 64)]::integer[]
      FROM (SELECT a.w, a.ok, s.secs, to_timestamp(floor(extract(epoch FROM a.t) / s.secs) * s.secs) AS start, service.latency_bucket(a.ms) AS k
              FROM unnest(w, t, ok, ms) AS a(w, t, ok, ms)
             CROSS JOIN (VALUES (300), (3600), (21600)) AS s(secs)) b
     GROUP BY b.w, b.secs, b.start
    ON CONFLICT (webhook_id, bucket_seconds, bucket_start)
    DO UPDATE SET attempts = r.attempts + excluded.attempts, successes = r.successes + excluded.successes,
                  latency = ARRAY[r.latency[1] + excluded.latency[1], r.latency[2] + excluded.latency[2], r.latency[3] + excluded.latency[3], r.latency[4] + excluded.latency[4],
                    r.latency[5] + excluded.latency[5], r.latency[6] + excluded.latency[6], r.latency[7] + excluded.latency[7], r.latency[8] + excluded.latency[8],
                    r.latency[9] + excluded.latency[9], r.latency[10] + excluded.latency[10], r.latency[11] + excluded.latency[11], r.latency[12] + excluded.latency[12],
                    r.latency[13] + excluded.latency[13], r.latency[14] + excluded.latency[14], r.latency[15] + excluded.latency[15], r.latency[16] + excluded.latency[16],
                    r.latency[17] + excluded.latency[17], r.latency[18] + excluded.latency[18], r.latency[19] + excluded.latency[19], r.latency[20] + excluded.latency[20],
                    r.latency[21] + excluded.latency[21], r.latency[22] + excluded.latency[22], r.latency[23] + excluded.latency[23], r.latency[24] + excluded.latency[24],
                    r.latency[25] + excluded.latency[25], r.latency[26] + excluded.latency[26], r.latency[27] + excluded.latency[27], r.latency[28] + excluded.latency[28],
                    r.latency[29] + excluded.latency[29], r.latency[30] + excluded.latency[30], r.latency[31] + excluded.latency[31], r.latency[32] + excluded.latency[32],
                    r.latency[33] + excluded.latency[33], r.latency[34] + excluded.latency[34], r.latency[35] + excluded.latency[35], r.latency[36] + excluded.latency[36],
                    r.latency[37] + excluded.latency[37], r.latency[38] + excluded.latency[38], r.latency[39] + excluded.latency[39], r.latency[40] + excluded.latency[40],
                    r.latency[41] + excluded.latency[41], r.latency[42] + excluded.latency[42], r.latency[43] + excluded.latency[43], r.latency[44] + excluded.latency[44],
                    r.latency[45] + excluded.latency[45], r.latency[46] + excluded.latency[46], r.latency[47] + excluded.latency[47], r.latency[48] + excluded.latency[48],
                    r.latency[49] + excluded.latency[49], r.latency[50] + excluded.latency[50], r.latency[51] + excluded.latency[51], r.latency[52] + excluded.latency[52],
                    r.latency[53] + excluded.latency[53], r.latency[54] + excluded.latency[54], r.latency[55] + excluded.latency[55], r.latency[56] + excluded.latency[56],
                    r.latency[57] + excluded.latency[57], r.latency[58] + excluded.latency[58], r.latency[59] + excluded.latency[59], r.latency[60] + excluded.latency[60],
                    r.latency[61] + excluded.latency[61], r.latency[62] + excluded.latency[62], r.latency[63] + excluded.latency[63], r.latency[64] + excluded.latency[64],
                    r.latency[65] + excluded.latency[65]];
  END $$;--> statement-breakpoint
DROP TABLE "service"."attempt_rollups";
