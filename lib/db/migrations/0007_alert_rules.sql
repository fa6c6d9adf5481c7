CREATE TABLE "console"."alert_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"environment" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"webhook_id" text,
	"threshold" double precision DEFAULT 0 NOT NULL,
	"window" text,
	"min_attempts" integer DEFAULT 10 NOT NULL,
	"target_url" text NOT NULL,
	"secret" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console"."alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rule_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"fired_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"cleared_at" timestamp (3) with time zone,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"fired_post_at" timestamp (3) with time zone,
	"fired_post_status" integer,
	"fired_post_error" text,
	"cleared_post_at" timestamp (3) with time zone,
	"cleared_post_status" integer,
	"cleared_post_error" text
);
--> statement-breakpoint
CREATE TABLE "console"."leases" (
	"name" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"until" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "console"."alerts" ADD CONSTRAINT "alerts_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "console"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_rules_environment_created_at_index" ON "console"."alert_rules" USING btree ("environment","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_once" ON "console"."alerts" USING btree ("rule_id","subject") WHERE "console"."alerts"."cleared_at" is null;--> statement-breakpoint
CREATE INDEX "alerts_fired_at_index" ON "console"."alerts" USING btree ("fired_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_firing_idx" ON "console"."alerts" USING btree ("fired_at") WHERE "console"."alerts"."cleared_at" is null;