ALTER TABLE "console"."users" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "console"."users" ADD COLUMN "role" text DEFAULT 'viewer' NOT NULL;--> statement-breakpoint
ALTER TABLE "console"."users" ADD COLUMN "disabled_at" timestamp (3) with time zone;--> statement-breakpoint
-- Users made before roles could do everything: they stay admins.
UPDATE "console"."users" SET "role" = 'admin';
