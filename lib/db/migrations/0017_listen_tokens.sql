CREATE TABLE "console"."personal_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"last_used_at" timestamp (3) with time zone,
	CONSTRAINT "personal_tokens_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "console"."receipts" ADD COLUMN "tx" "xid8" DEFAULT '0'::xid8 NOT NULL;--> statement-breakpoint
ALTER TABLE "console"."personal_tokens" ADD CONSTRAINT "personal_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "console"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personal_tokens_user_id_created_at_index" ON "console"."personal_tokens" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "receipts_stream_idx" ON "console"."receipts" USING btree ("receiver_id","tx","id");--> statement-breakpoint
-- ---- hand-written (re-append after regenerating) ----
-- New receipts record the transaction that stores them; rows stored before keep '0' (a constant
-- default above, so adding the column rewrites no table). lib/console/listen/read-settled.ts.
ALTER TABLE "console"."receipts" ALTER COLUMN "tx" SET DEFAULT pg_current_xact_id();
