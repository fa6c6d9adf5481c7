// Operator CLI of the embedded service: `npm run service -- <command>`.
//   clients:create --account <name>   issue a client (prints {"client_id","client_secret"} last)
//   clients:list [--account <name>]   list clients
//   clients:revoke <client_id>        revoke a client; its tokens stop working at once
import '../lib/load-env';
import { runCli } from '@/lib/run-cli';
import { parseArgs } from 'node:util';
import { createClient, listClients, revokeClient } from '@/lib/service/auth/clients';

const USAGE = `usage: npm run service -- clients:create --account <name>
       npm run service -- clients:list [--account <name>]
       npm run service -- clients:revoke <client_id>`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { account: { type: 'string' } } });
  const [command, arg] = positionals;
  switch (command) {
    case 'clients:create': {
      const account = values.account?.trim();
      if (!account || account.length > 100) {
        console.error('clients:create needs --account <name> (1-100 characters).');
        return 2;
      }
      const creds = await createClient(account);
      console.log(`Issued a client for account "${account}". The secret is shown only now.`);
      console.log(JSON.stringify(creds));
      return 0;
    }
    case 'clients:list': {
      const rows = await listClients(values.account);
      for (const r of rows)
        console.log(`${r.clientId}\t${r.account}\t${r.createdAt.toISOString()}\t${r.revokedAt ? `revoked ${r.revokedAt.toISOString()}` : 'active'}`);
      if (!rows.length) console.log('No clients.');
      return 0;
    }
    case 'clients:revoke': {
      if (!arg) {
        console.error('clients:revoke needs a client_id.');
        return 2;
      }
      const done = await revokeClient(arg);
      console.log(done ? `Revoked ${arg}.` : `No active client ${arg}.`);
      return done ? 0 : 1;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

await runCli(main);
