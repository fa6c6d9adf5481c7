CREATE TABLE "console"."receipt_trouble_hours" (
	"receiver_id" uuid NOT NULL,
	"hour" timestamp (3) with time zone NOT NULL,
	"failures" integer NOT NULL,
	"unverified_accepted" integer NOT NULL,
	"last_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "receipt_trouble_hours_receiver_id_hour_pk" PRIMARY KEY("receiver_id","hour")
);
--> statement-breakpoint
CREATE INDEX "receipts_unverified_accepted_idx" ON "console"."receipts" USING btree ("receiver_id","received_at" DESC NULLS LAST) WHERE "console"."receipts"."verdict" <> 'valid' and "console"."receipts"."response_status" between 200 and 299;--> statement-breakpoint
-- The hour (UTC) an arrival is counted in.
CREATE FUNCTION "console"."trouble_hour"(t timestamptz) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT date_bin('1 hour', t, timestamptz '2000-01-01 00:00:00+00') $$;--> statement-breakpoint
-- In the statement that inserts receipts: its troubled ones added to their hours, in one upsert
-- in key order (two statements lock the same rows in the same order: no deadlock).
CREATE FUNCTION "console"."receipts_to_trouble_hours"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    INSERT INTO console.receipt_trouble_hours AS h (receiver_id, hour, failures, unverified_accepted, last_at)
    SELECT receiver_id, console.trouble_hour(received_at), count(*)::integer,
           (count(*) FILTER (WHERE response_status BETWEEN 200 AND 299))::integer, max(received_at)
      FROM new_receipts
     WHERE verdict <> 'valid' OR response_status NOT BETWEEN 200 AND 299
     GROUP BY 1, 2
     ORDER BY 1, 2
    ON CONFLICT (receiver_id, hour) DO UPDATE
      SET failures = h.failures + excluded.failures, unverified_accepted = h.unverified_accepted + excluded.unverified_accepted,
          last_at = greatest(h.last_at, excluded.last_at);
    RETURN NULL;
  END
  $$;--> statement-breakpoint
CREATE TRIGGER "receipts_trouble_hours_insert" AFTER INSERT ON "console"."receipts"
  REFERENCING NEW TABLE AS new_receipts
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."receipts_to_trouble_hours"();--> statement-breakpoint
-- In the statement that deletes receipts (retention, a receiver's removal): the hours it touched
-- counted again from the receipts left (the troubled index, an hour of one receiver each); an hour
-- left with none goes.
CREATE FUNCTION "console"."receipts_recount_trouble_hours"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    WITH touched AS (
      SELECT DISTINCT receiver_id, console.trouble_hour(received_at) AS hour
        FROM old_receipts
       WHERE verdict <> 'valid' OR response_status NOT BETWEEN 200 AND 299),
    counted AS (
      SELECT t.receiver_id, t.hour, c.failures, c.unverified_accepted, c.last_at
        FROM touched t
       CROSS JOIN LATERAL (
         SELECT count(*)::integer AS failures, (count(*) FILTER (WHERE r.response_status BETWEEN 200 AND 299))::integer AS unverified_accepted, max(r.received_at) AS last_at
           FROM console.receipts r
          WHERE r.receiver_id = t.receiver_id AND r.received_at >= t.hour AND r.received_at < t.hour + interval '1 hour'
            AND (r.verdict <> 'valid' OR r.response_status NOT BETWEEN 200 AND 299)) c),
    gone AS (
      DELETE FROM console.receipt_trouble_hours h USING counted c
       WHERE h.receiver_id = c.receiver_id AND h.hour = c.hour AND c.failures = 0)
    UPDATE console.receipt_trouble_hours h
       SET failures = c.failures, unverified_accepted = c.unverified_accepted, last_at = c.last_at
      FROM counted c
     WHERE h.receiver_id = c.receiver_id AND h.hour = c.hour AND c.failures > 0;
    RETURN NULL;
  END
  $$;--> statement-breakpoint
CREATE TRIGGER "receipts_trouble_hours_delete" AFTER DELETE ON "console"."receipts"
  REFERENCING OLD TABLE AS old_receipts
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."receipts_recount_trouble_hours"();--> statement-breakpoint
CREATE FUNCTION "console"."receipts_truncate_trouble_hours"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$ BEGIN TRUNCATE console.receipt_trouble_hours; RETURN NULL; END $$;--> statement-breakpoint
CREATE TRIGGER "receipts_trouble_hours_truncate" AFTER TRUNCATE ON "console"."receipts"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."receipts_truncate_trouble_hours"();--> statement-breakpoint
-- The receipts stored before this migration.
INSERT INTO console.receipt_trouble_hours (receiver_id, hour, failures, unverified_accepted, last_at)
SELECT receiver_id, console.trouble_hour(received_at), count(*)::integer,
       (count(*) FILTER (WHERE response_status BETWEEN 200 AND 299))::integer, max(received_at)
  FROM console.receipts
 WHERE verdict <> 'valid' OR response_status NOT BETWEEN 200 AND 299
 GROUP BY 1, 2;
