ALTER TABLE "console"."users" ADD COLUMN "oidc_issuer" text;--> statement-breakpoint
ALTER TABLE "console"."users" ADD COLUMN "oidc_subject" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_oidc_subject_key" ON "console"."users" USING btree ("oidc_issuer","oidc_subject");