// Issues an OAuth client for each account named on the command line, in this one process, and
// prints `{ "<account>": { client_id, client_secret }, … }` (the store is the environment's
// DATA_DIR or DATABASE_URL). The shared apps' pools of accounts (tests/helpers/shared-app-host.ts):
// one process for them all, where `npm run service -- clients:create` would start one per account.
import { closeDb } from '@/lib/db/client';
import { createClient } from '@/lib/service/auth/clients';

const clients: Record<string, { client_id: string; client_secret: string }> = {};
try {
  for (const account of process.argv.slice(2)) clients[account] = await createClient(account);
  console.log(JSON.stringify(clients));
} finally {
  await closeDb();
}
