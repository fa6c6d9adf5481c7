// Operator CLI of the console: `npm run console -- <command>`.
//   users:add --email <e> --password <p> [--role viewer|operator|admin]   add a staff user (admin first, viewer after)
//   users:password --email <e> --password <p>      set a staff user's password
//   users:list                                     list staff users
//   receivers:create --name <n> [--slug <s>] [--secret whsec_…]   create a receiver (prints it as JSON last)
//   receivers:list                                 list receivers with their ingest URLs
// Works while the app is stopped (same DATA_DIR) or at any time against DATABASE_URL.
import '../lib/load-env';
import { runCli } from '@/lib/run-cli';
import { parseArgs } from 'node:util';
import { createReceiver, ingestUrl, listReceivers } from '@/lib/console/receivers';
import { createUser, listUsers, setPassword, UserExistsError } from '@/lib/console/staff/users';
import { isRole } from '@/lib/console/staff/roles';

const USAGE = `usage: npm run console -- users:add --email <email> --password <password> [--role viewer|operator|admin]
       npm run console -- users:password --email <email> --password <password>
       npm run console -- users:list
       npm run console -- receivers:create --name <name> [--slug <slug>] [--secret whsec_…]
       npm run console -- receivers:list`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      slug: { type: 'string' },
      secret: { type: 'string' },
      role: { type: 'string' },
    },
  });
  const [command] = positionals;
  switch (command) {
    case 'users:add':
    case 'users:password': {
      if (!values.email || !values.password) {
        console.error(`${command} needs --email and --password.`);
        return 2;
      }
      if (command === 'users:password') {
        const done = await setPassword(values.email, values.password);
        console.log(done ? `Password set for ${values.email}.` : `No user ${values.email}.`);
        return done ? 0 : 1;
      }
      if (values.role !== undefined && !isRole(values.role)) {
        console.error('--role must be viewer, operator or admin.');
        return 2;
      }
      try {
        const user = await createUser(values.email, values.password, values.role);
        console.log(`Added ${user.email} (${user.role}).`);
        console.log(JSON.stringify({ id: user.id, email: user.email, role: user.role }));
        return 0;
      } catch (err) {
        if (err instanceof UserExistsError) {
          console.error(`${err.message} Use users:password to change its password.`);
          return 1;
        }
        throw err;
      }
    }
    case 'users:list': {
      const users = await listUsers();
      for (const u of users) console.log(`${u.email}\t${u.role}${u.disabled ? ' (deactivated)' : ''}\t${u.signIn}\t${u.createdAt.toISOString()}\t${u.lastLoginAt ? `last login ${u.lastLoginAt.toISOString()}` : 'never logged in'}`);
      if (!users.length) console.log('No users.');
      return 0;
    }
    case 'receivers:create': {
      if (!values.name) {
        console.error('receivers:create needs --name <name>.');
        return 2;
      }
      const r = await createReceiver({ name: values.name, slug: values.slug, secret: values.secret });
      console.log(`Created receiver "${r.name}": ${ingestUrl(r.slug)}`);
      console.log(JSON.stringify({ id: r.id, slug: r.slug, name: r.name, ingestUrl: ingestUrl(r.slug) }));
      return 0;
    }
    case 'receivers:list': {
      const list = await listReceivers();
      for (const r of list) console.log(`${r.slug}\t${r.name}\t${ingestUrl(r.slug)}\t${r.secrets.length ? `${r.secrets.length} secret(s)` : 'no secret'}`);
      if (!list.length) console.log('No receivers.');
      return 0;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

await runCli(main);
