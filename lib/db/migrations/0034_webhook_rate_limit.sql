CREATE TABLE "service"."webhook_rates" (
	"webhook_id" text PRIMARY KEY NOT NULL,
	"next_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "service"."deliveries" ADD COLUMN "slot_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "service"."webhooks" ADD COLUMN "rate_limit" integer;--> statement-breakpoint
ALTER TABLE "service"."webhook_rates" ADD CONSTRAINT "webhook_rates_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "service"."webhooks"("id") ON DELETE no action ON UPDATE no action;