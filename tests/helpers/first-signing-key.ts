// Run by tests/integration/scale-out.test.ts as several processes at once: opens the database
// named by DATABASE_URL, waits for the instant in argv[2] (ms since the epoch), asks for the
// current signing key — the first start's path — and prints its kid.
import { closeDb, getDb } from '@/lib/db/client';
import { currentSigningKey } from '@/lib/service/auth/signing-keys';

await getDb();
await new Promise((r) => setTimeout(r, Math.max(0, Number(process.argv[2]) - Date.now())));
const key = await currentSigningKey();
console.log(key.kid);
await closeDb();
