// Liveness: the process answers HTTP. No I/O, so a database outage does not get the process
// restarted; whether it can serve is GET /api/ready.
import { json, otherMethods, route } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = route(async () => json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
