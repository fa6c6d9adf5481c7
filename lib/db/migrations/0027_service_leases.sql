CREATE TABLE "service"."leases" (
	"name" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"until" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
-- Hand-written: the service's purge took its lease in console.leases before this release. A lease
-- held at the upgrade moves with it (a process purging now keeps its turn until the lease runs out),
-- and the console's table keeps only the console's.
INSERT INTO "service"."leases" ("name", "owner", "until")
	SELECT "name", "owner", "until" FROM "console"."leases" WHERE "name" = 'retention-service';
--> statement-breakpoint
DELETE FROM "console"."leases" WHERE "name" = 'retention-service';
