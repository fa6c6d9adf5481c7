-- Grants name the Connect-flow session that created them. Grants made before this release get an id
-- derived from their own (wfs_ + the grant id's 32 hex digits), and so do the grants stored for
-- Idempotency-Key replays, so a replay answers what a fresh read does.
ALTER TABLE "service"."grants" ADD COLUMN "workflow_session_id" text;--> statement-breakpoint
UPDATE "service"."grants" SET "workflow_session_id" = 'wfs_' || replace("id"::text, '-', '');--> statement-breakpoint
ALTER TABLE "service"."grants" ALTER COLUMN "workflow_session_id" SET NOT NULL;--> statement-breakpoint
UPDATE "service"."idempotency_keys" SET "body" = "body" || jsonb_build_object('workflowSessionId', 'wfs_' || replace("body"->>'id', '-', '')) WHERE "body" ? 'id' AND NOT "body" ? 'workflowSessionId';--> statement-breakpoint
ALTER TABLE "service"."nonprofits" ADD COLUMN "preferred_name" text;--> statement-breakpoint
ALTER TABLE "service"."nonprofits" ADD COLUMN "website" text;
