-- An earlier release could leave two active keys after a concurrent first start: keep the newest
-- active (the one every instance already signed with), retire the others (still published, so
-- tokens they signed verify until they expire).
UPDATE "service"."signing_keys" SET "retired_at" = now() WHERE "retired_at" IS NULL AND "kid" <> (SELECT "kid" FROM "service"."signing_keys" WHERE "retired_at" IS NULL ORDER BY "created_at" DESC, "kid" DESC LIMIT 1);--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_one_active" ON "service"."signing_keys" USING btree ((true)) WHERE "service"."signing_keys"."retired_at" is null;