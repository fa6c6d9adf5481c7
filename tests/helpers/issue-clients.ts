// Issues an OAuth client for each account named on the command line, in this one process, and
// prints `{ "clients": { "<account>": { client_id, client_secret }, … }, "signingKey": { kid, privateJwk } }`
// (the store is the environment's DATA_DIR or DATABASE_URL). The shared apps' pools of accounts
// (tests/helpers/shared-app-host.ts): one process for them all, where `npm run service --
// clients:create` would start one per account. The signing key is made here as the app's first
// start would make it (the app then takes it), so files on a shared app can sign tokens with the
// app's own key (hostile-input, auth) without reading a store the app holds.
import { isNull } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { signingKeys } from '@/lib/db/schema/service';
import { createClient } from '@/lib/service/auth/clients';
import { currentSigningKey } from '@/lib/service/auth/signing-keys';

const clients: Record<string, { client_id: string; client_secret: string }> = {};
try {
  for (const account of process.argv.slice(2)) clients[account] = await createClient(account);
  const { kid } = await currentSigningKey();
  const [key] = await (await getDb()).select().from(signingKeys).where(isNull(signingKeys.retiredAt));
  if (key?.kid !== kid) throw new Error(`the active signing key is not ${kid}`);
  console.log(JSON.stringify({ clients, signingKey: { kid, privateJwk: key.privateJwk } }));
} finally {
  await closeDb();
}
