CREATE TABLE "console"."receiver_hosts" (
	"receiver_id" uuid NOT NULL,
	"host" text NOT NULL,
	"first_seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receiver_hosts_receiver_id_host_pk" PRIMARY KEY("receiver_id","host")
);
--> statement-breakpoint
ALTER TABLE "console"."receipts" ADD COLUMN "host" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "console"."receiver_hosts" ADD CONSTRAINT "receiver_hosts_receiver_id_receivers_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "console"."receivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "receipts_troubled_idx" ON "console"."receipts" USING btree ("receiver_id","received_at" DESC NULLS LAST) WHERE "console"."receipts"."verdict" <> 'valid' or "console"."receipts"."response_status" not between 200 and 299;