CREATE SCHEMA "console";
--> statement-breakpoint
CREATE SCHEMA "service";
--> statement-breakpoint
CREATE TABLE "service"."accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "service"."attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"delivery_id" uuid NOT NULL,
	"message_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"account_id" uuid NOT NULL,
	"url" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"status" text NOT NULL,
	"response_status_code" integer NOT NULL,
	"response_duration_ms" integer NOT NULL,
	"response" text DEFAULT '' NOT NULL,
	"trigger_type" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."clients" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "service"."connects" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"nonprofit_id" uuid NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"api_key" text NOT NULL,
	"api_key_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connects_apiKeyHash_unique" UNIQUE("api_key_hash")
);
--> statement-breakpoint
CREATE TABLE "service"."deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"account_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"scheduled_attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"lease_until" timestamp (3) with time zone,
	"lease_owner" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"connect_id" text NOT NULL,
	"nonprofit_id" uuid NOT NULL,
	"tracking_id" text NOT NULL,
	"amount" integer NOT NULL,
	"fee_amount" integer NOT NULL,
	"covered_fees" boolean NOT NULL,
	"status" text NOT NULL,
	"fund_id" text NOT NULL,
	"fund_name" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"note" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grants_trackingId_unique" UNIQUE("tracking_id")
);
--> statement-breakpoint
CREATE TABLE "service"."idempotency_keys" (
	"connect_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_connect_id_key_pk" PRIMARY KEY("connect_id","key")
);
--> statement-breakpoint
CREATE TABLE "console"."login_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."messages" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"payload" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."nonprofits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ein" text NOT NULL,
	"name" text NOT NULL,
	"contact" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "nonprofits_ein_unique" UNIQUE("ein")
);
--> statement-breakpoint
CREATE TABLE "console"."receipts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"receiver_id" uuid NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"query" text DEFAULT '' NOT NULL,
	"headers" jsonb NOT NULL,
	"body" "bytea",
	"body_utf8" boolean DEFAULT true NOT NULL,
	"body_size" integer NOT NULL,
	"oversize" boolean DEFAULT false NOT NULL,
	"source_ip" text DEFAULT '' NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"message_id" text,
	"verdict" text NOT NULL,
	"verdict_reason" text DEFAULT '' NOT NULL,
	"duplicate" boolean DEFAULT false NOT NULL,
	"response_status" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console"."receivers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"secrets" text[] DEFAULT '{}'::text[] NOT NULL,
	"response_status" integer DEFAULT 200 NOT NULL,
	"response_body" text DEFAULT '' NOT NULL,
	"response_delay_ms" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receivers_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "console"."settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "service"."token_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console"."tracked_webhooks" (
	"environment" text NOT NULL,
	"webhook_id" text NOT NULL,
	"receiver_id" uuid,
	"url" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracked_webhooks_environment_webhook_id_pk" PRIMARY KEY("environment","webhook_id")
);
--> statement-breakpoint
CREATE TABLE "console"."users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp (3) with time zone,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "service"."webhook_secrets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"webhook_id" text NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "service"."webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"url" text NOT NULL,
	"event_types" text[] NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"disabled_reason" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"failing_since" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "service"."attempts" ADD CONSTRAINT "attempts_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "service"."deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."clients" ADD CONSTRAINT "clients_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "service"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."connects" ADD CONSTRAINT "connects_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "service"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."connects" ADD CONSTRAINT "connects_nonprofit_id_nonprofits_id_fk" FOREIGN KEY ("nonprofit_id") REFERENCES "service"."nonprofits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."deliveries" ADD CONSTRAINT "deliveries_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "service"."messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."deliveries" ADD CONSTRAINT "deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "service"."webhooks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."grants" ADD CONSTRAINT "grants_connect_id_connects_id_fk" FOREIGN KEY ("connect_id") REFERENCES "service"."connects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console"."receipts" ADD CONSTRAINT "receipts_receiver_id_receivers_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "console"."receivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console"."tracked_webhooks" ADD CONSTRAINT "tracked_webhooks_receiver_id_receivers_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "console"."receivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."webhook_secrets" ADD CONSTRAINT "webhook_secrets_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "service"."webhooks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attempts_webhook_id_message_id_created_at_id_index" ON "service"."attempts" USING btree ("webhook_id","message_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "clients_account_id_index" ON "service"."clients" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "connects_account_id_nonprofit_id_index" ON "service"."connects" USING btree ("account_id","nonprofit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_message_id_webhook_id_index" ON "service"."deliveries" USING btree ("message_id","webhook_id");--> statement-breakpoint
CREATE INDEX "deliveries_webhook_id_created_at_message_id_index" ON "service"."deliveries" USING btree ("webhook_id","created_at" DESC NULLS LAST,"message_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "service"."deliveries" USING btree ("next_attempt_at") WHERE status in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "grants_connect_id_created_at_id_index" ON "service"."grants" USING btree ("connect_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_account_id_created_at_index" ON "service"."messages" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "receipts_receiver_id_id_index" ON "console"."receipts" USING btree ("receiver_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "receipts_message_id_receiver_id_index" ON "console"."receipts" USING btree ("message_id","receiver_id");--> statement-breakpoint
CREATE INDEX "webhook_secrets_webhook_id_index" ON "service"."webhook_secrets" USING btree ("webhook_id");--> statement-breakpoint
CREATE INDEX "webhooks_account_id_created_at_id_index" ON "service"."webhooks" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);