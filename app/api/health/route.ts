// Liveness and readiness: answers once the database is open and migrated.
import { getDb } from '@/lib/db/client';
import { json, otherMethods, route } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = route(async () => {
  await getDb();
  return json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
