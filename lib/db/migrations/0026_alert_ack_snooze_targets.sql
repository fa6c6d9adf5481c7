ALTER TABLE "console"."alert_rules" ADD COLUMN "target_format" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "console"."alerts" ADD COLUMN "acknowledged_by" text;--> statement-breakpoint
ALTER TABLE "console"."alerts" ADD COLUMN "acknowledged_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "console"."alerts" ADD COLUMN "acknowledge_note" text;--> statement-breakpoint
ALTER TABLE "console"."alerts" ADD COLUMN "snoozed_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "console"."alerts" ADD COLUMN "notified_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "console"."alerts" ADD COLUMN "repeats" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Alerts already firing were sent when they fired: a repeat counts from then.
UPDATE "console"."alerts" SET "notified_at" = coalesce("fired_post_at", "fired_at");