import { closeDb } from '@/lib/db/client';

/** Runs a command-line tool's `main`, closes the database, and exits with its code; an error is one line. */
export async function runCli(main: () => Promise<number>): Promise<never> {
  let code = 1;
  try {
    code = await main();
  } catch (err) {
    console.error((err as Error).message);
  } finally {
    await closeDb().catch(() => {});
  }
  process.exit(code);
}
