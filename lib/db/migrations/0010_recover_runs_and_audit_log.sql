CREATE TABLE "console"."audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"target" text DEFAULT '' NOT NULL,
	"result" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"environment" text DEFAULT '' NOT NULL,
	"source" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."recover_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"webhook_id" text NOT NULL,
	"since" timestamp (3) with time zone NOT NULL,
	"until" timestamp (3) with time zone,
	"messages" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "service"."deliveries" ADD COLUMN "recover_run_id" text;--> statement-breakpoint
ALTER TABLE "service"."recover_runs" ADD CONSTRAINT "recover_runs_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "service"."webhooks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_id_index" ON "console"."audit_log" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_id_index" ON "console"."audit_log" USING btree ("actor","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_action_id_index" ON "console"."audit_log" USING btree ("action","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "recover_runs_webhook_id_created_at_index" ON "service"."recover_runs" USING btree ("webhook_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "deliveries_recover_run_idx" ON "service"."deliveries" USING btree ("recover_run_id","status") WHERE recover_run_id is not null;