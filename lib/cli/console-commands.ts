import { parseArgs } from 'node:util';
import { createReceiver, ingestUrl, listReceivers } from '@/lib/console/receivers';
import { createUser, listUsers, oneTimePassword, setPassword, UserExistsError } from '@/lib/console/staff/users';
import { isRole } from '@/lib/console/staff/roles';
import { ApiError } from '@/lib/http/errors';
import { refusedSecretOption } from './read-secret';

// The console's staff and receiver commands (`npm run console -- <command>`), written against an
// output of lines rather than the terminal, so the same code runs in the CLI's own process (the app
// stopped, or PostgreSQL) and inside the running app, which owns the embedded store, when the CLI
// asks it over loopback (lib/cli/control-server.ts). Secrets never come in argv (read-secret.ts):
// the CLI process reads a chosen password or secret from standard input and hands it over as `input`.

export type TCommandIo = { out: (line: string) => void; err: (line: string) => void };
/** What the CLI read from standard input for `--password-stdin` / `--secret-stdin`. */
export type TCommandInput = { password?: string; secret?: string };

export const CONSOLE_USAGE = `usage: npm run console -- users:add --email <email> [--password-stdin] [--role viewer|operator|admin]
       npm run console -- users:password --email <email> [--password-stdin]
       npm run console -- users:list
       npm run console -- receivers:create --name <name> [--slug <slug>] [--secret-stdin]
       npm run console -- receivers:list
       npm run console -- backup --out <file.tar.gz>
       npm run console -- restore --from <file.tar.gz>`;

/** The commands runConsoleCommand runs (backup and restore are the CLI's own: lib/cli/backup-commands.ts). */
export const STORE_COMMANDS = new Set(['users:add', 'users:password', 'users:list', 'receivers:create', 'receivers:list']);

/** The command's options; throws (one sentence saying how instead) on a secret given in argv. */
export function parseCommand(argv: string[]) {
  const refused = refusedSecretOption(argv);
  if (refused) throw new Error(refused);
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      name: { type: 'string' },
      slug: { type: 'string' },
      'secret-stdin': { type: 'boolean' },
      role: { type: 'string' },
      out: { type: 'string' },
      from: { type: 'string' },
    },
  });
}

/** The parsed command line, or null once a line on `err` has said what is wrong with it (exit code 2). */
export function parseOrSay(argv: string[], io: TCommandIo): ReturnType<typeof parseCommand> | null {
  try {
    return parseCommand(argv);
  } catch (err) {
    io.err((err as Error).message);
    return null;
  }
}

/** Runs one staff or receiver command; its exit code. A refusal of bad input is a line on `err` and 1 or 2, never a throw. */
export async function runConsoleCommand(argv: string[], io: TCommandIo, input: TCommandInput = {}): Promise<number> {
  const parsed = parseOrSay(argv, io);
  if (!parsed) return 2;
  const { positionals, values } = parsed;
  try {
    return await run(positionals[0], values, io, input);
  } catch (err) {
    if (err instanceof ApiError) {
      io.err(err.message);
      return 1;
    }
    throw err;
  }
}

async function run(command: string | undefined, values: ReturnType<typeof parseCommand>['values'], io: TCommandIo, input: TCommandInput): Promise<number> {
  switch (command) {
    case 'users:add':
    case 'users:password': {
      if (!values.email) {
        io.err(`${command} needs --email <email>.`);
        return 2;
      }
      if (values['password-stdin'] && !input.password) {
        io.err('--password-stdin: nothing came on standard input (pipe the password in, or type it when asked).');
        return 2;
      }
      // Without a chosen one, a generated one-time password, shown only here.
      const chosen = values['password-stdin'] ? input.password! : null;
      const password = chosen ?? oneTimePassword();
      const which = chosen ? 'a one-time password' : `the one-time password ${password}`;
      if (command === 'users:password') {
        const done = await setPassword(values.email, password);
        (done ? io.out : io.err)(
          done ? `Password set for ${values.email}: ${which}, to be changed at the next sign-in; their sessions ended.` : `No user ${values.email}.`,
        );
        return done ? 0 : 1;
      }
      if (values.role !== undefined && !isRole(values.role)) {
        io.err('--role must be viewer, operator or admin.');
        return 2;
      }
      try {
        // As the Staff page adds one: the password is one-time (someone else chose it), changed at the first sign-in.
        const user = await createUser(values.email, password, values.role, true);
        io.out(`Added ${user.email} (${user.role}) with ${which}: they choose their own at their first sign-in.`);
        io.out(
          JSON.stringify({ id: user.id, email: user.email, role: user.role, mustChangePassword: user.mustChangePassword, ...(chosen ? {} : { password }) }),
        );
        return 0;
      } catch (err) {
        if (err instanceof UserExistsError) {
          io.err(`${err.message} Use users:password to change its password.`);
          return 1;
        }
        throw err;
      }
    }
    case 'users:list': {
      const users = await listUsers();
      for (const u of users)
        io.out(
          `${u.email}\t${u.role}${u.disabled ? ' (deactivated)' : ''}\t${u.signIn}\t${u.createdAt.toISOString()}\t${u.lastLoginAt ? `last login ${u.lastLoginAt.toISOString()}` : 'never logged in'}`,
        );
      if (!users.length) io.out('No users.');
      return 0;
    }
    case 'receivers:create': {
      if (!values.name) {
        io.err('receivers:create needs --name <name>.');
        return 2;
      }
      if (values['secret-stdin'] && !input.secret) {
        io.err('--secret-stdin: nothing came on standard input (pipe the whsec_… secret in, or paste it when asked).');
        return 2;
      }
      const r = await createReceiver({ name: values.name, slug: values.slug, secret: values['secret-stdin'] ? input.secret : undefined });
      io.out(`Created receiver "${r.name}": ${ingestUrl(r.slug)}`);
      io.out(JSON.stringify({ id: r.id, slug: r.slug, name: r.name, ingestUrl: ingestUrl(r.slug) }));
      return 0;
    }
    case 'receivers:list': {
      const list = await listReceivers();
      for (const r of list) io.out(`${r.slug}\t${r.name}\t${ingestUrl(r.slug)}\t${r.secrets.length ? `${r.secrets.length} secret(s)` : 'no secret'}`);
      if (!list.length) io.out('No receivers.');
      return 0;
    }
    default:
      io.err(CONSOLE_USAGE);
      return 2;
  }
}
