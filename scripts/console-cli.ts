// Operator CLI of the console: `npm run console -- <command>`.
//   users:add --email <e> [--password-stdin] [--role viewer|operator|admin]   add a staff user (admin first, viewer after) with a one-time password
//   users:password --email <e> [--password-stdin]  set a staff user's one-time password (changed at the next sign-in)
//   users:list                                     list staff users
//   receivers:create --name <n> [--slug <s>] [--secret-stdin]   create a receiver (prints it as JSON last)
//   receivers:list                                 list receivers with their ingest URLs
//   backup --out <file.tar.gz>                     a consistent backup of the embedded store
//   restore --from <file.tar.gz>                   a backup into an empty DATA_DIR
// On the embedded store, while the app runs, the app runs the command (it owns the store; the CLI
// asks it over loopback with DATA_DIR's control file, lib/cli/control-client.ts); when it is
// stopped, this process opens the store. On PostgreSQL (DATABASE_URL), this process at any time.
// Each command ends with a line on stderr naming the store it used and who did the work, and warns
// when the app answering on PORT serves another store (lib/cli/store-report.ts).
// A password or secret never comes in argv (visible in `ps`): without --password-stdin a one-time
// password is generated and printed; with it, or --secret-stdin, this process reads standard input
// (asking without echo on a terminal) and hands the value to the command, or to the running app.
import '../lib/load-env';
import { runCli } from '@/lib/run-cli';
import { backupCommand, restoreCommand } from '@/lib/cli/backup-commands';
import { parseOrSay, runConsoleCommand, STORE_COMMANDS, type TCommandInput, type TCommandIo } from '@/lib/cli/console-commands';
import { runningApp } from '@/lib/cli/control-client';
import { readSecretFromStdin } from '@/lib/cli/read-secret';
import { reportStore } from '@/lib/cli/store-report';
import { env } from '@/lib/env';

const io: TCommandIo = { out: (line) => console.log(line), err: (line) => console.error(line) };

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const parsed = parseOrSay(argv, io);
  if (!parsed) return 2;
  const { positionals, values } = parsed;
  const [command] = positionals;
  if (command === 'backup') return backupCommand(values.out, io);
  if (command === 'restore') return restoreCommand(values.from, io);
  const input: TCommandInput = {};
  if (values['password-stdin']) input.password = (await readSecretFromStdin(`Password for ${values.email ?? 'the user'} (not shown): `)) ?? undefined;
  if (values['secret-stdin']) input.secret = (await readSecretFromStdin('Signing secret, whsec_… (not shown): ')) ?? undefined;
  if (!STORE_COMMANDS.has(command ?? '')) return runConsoleCommand(argv, io, input); // the usage
  const app = env.DATABASE_URL ? null : await runningApp(env.DATA_DIR);
  if (app) {
    try {
      const code = await app.command(argv, io, input);
      await reportStore(io, { appPid: app.pid });
      return code;
    } catch (err) {
      // A control file its app left when it was killed: nobody answers; the store is ours to open.
      if ((err as NodeJS.ErrnoException).code !== 'ECONNREFUSED') throw err;
    }
  }
  const code = await runConsoleCommand(argv, io, input);
  await reportStore(io, 'this process');
  return code;
}

await runCli(main);
