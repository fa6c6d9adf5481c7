import readline from 'node:readline/promises';
import { Writable } from 'node:stream';

// Secrets reach the command-line tools on standard input, never in argv: every user of the machine
// sees a process's arguments (`ps`), and a shell keeps them in its history. On a terminal the
// tool asks, and what is typed is not echoed; piped in, the input is the secret (less the newline
// that ends it).

/** Refusals of a secret given as an option: `--password …`, `--password=…` and the like, each naming the way to give it instead. */
const ARGV_SECRETS: Record<string, string> = {
  password:
    '--password on the command line is visible to every user of this machine (ps): leave it out for a generated one-time password, or pipe yours with --password-stdin.',
  secret: '--secret on the command line is visible to every user of this machine (ps): pipe the whsec_… secret with --secret-stdin.',
};

/** The sentence refusing the first secret option in `argv` (`--password`, `--secret`), or null when there is none. */
export function refusedSecretOption(argv: string[]): string | null {
  for (const arg of argv) {
    if (arg === '--') break;
    const name = /^--(password|secret)(=|$)/.exec(arg)?.[1];
    if (name) return ARGV_SECRETS[name];
  }
  return null;
}

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Asks on the terminal without echoing what is typed (readline writes the echo to an output that drops it). */
async function ask(prompt: string): Promise<string> {
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = readline.createInterface({ input: process.stdin, output: silent, terminal: true });
  process.stderr.write(prompt);
  try {
    return await rl.question('');
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}

/** The secret on standard input: asked for (no echo) on a terminal, else all of it, less one ending newline; an empty one is null. */
export async function readSecretFromStdin(prompt: string): Promise<string | null> {
  const text = process.stdin.isTTY ? await ask(prompt) : (await readAll(process.stdin)).replace(/\r?\n$/, '');
  return text === '' ? null : text;
}
