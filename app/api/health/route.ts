// Liveness: the process answers HTTP. No I/O, so a database outage does not get the process
// restarted; whether it can serve is GET /api/ready. `store` is a digest of the store's place
// (lib/db/store-identity.ts), by which the console CLI tells whether this app serves the store it
// changed; it says nothing of where that store is.
import { configuredStore, storeDigest } from '@/lib/db/store-identity';
import { json, otherMethods, route } from '@/lib/http/respond';
import { processSingleton } from '@/lib/process-singleton';

export const dynamic = 'force-dynamic';

const digest = () => processSingleton('store-digest', () => storeDigest(configuredStore()));

export const GET = route(async () => json({ status: 'ok', store: digest() }, { headers: { 'cache-control': 'no-store' } }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
