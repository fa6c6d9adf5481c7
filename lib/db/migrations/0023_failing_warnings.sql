ALTER TABLE "service"."recover_runs" ADD COLUMN "kind" text DEFAULT 'recover' NOT NULL;--> statement-breakpoint
ALTER TABLE "service"."webhooks" ADD COLUMN "failing_warned_percent" smallint;--> statement-breakpoint
ALTER TABLE "service"."webhooks" ADD COLUMN "failing_warned_since" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "webhooks_failing_idx" ON "service"."webhooks" USING btree ("failing_since") WHERE failing_since is not null and not disabled and deleted_at is null;