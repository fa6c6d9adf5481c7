import fs from 'node:fs';
import path from 'node:path';

// What another local account could reach of the console's files: every file and folder under the
// given roots (the roots too), walked whole, links not followed.

function* walk(root: string): Generator<{ p: string; st: fs.Stats }> {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(root);
  } catch {
    return; // gone meanwhile (a backup's partial file, a staging folder)
  }
  yield { p: root, st };
  if (!st.isDirectory()) return;
  let names: string[] = [];
  try {
    names = fs.readdirSync(root);
  } catch {
    /* removed meanwhile */
  }
  for (const name of names) yield* walk(path.join(root, name));
}

/** "path 0644" for each file or folder under `roots` that group or others may read, write or enter. */
export function openToOthers(...roots: string[]): string[] {
  const open: string[] = [];
  for (const root of roots) {
    if (!fs.existsSync(root)) throw new Error(`${root} does not exist: nothing to check`);
    for (const { p, st } of walk(root)) if (!st.isSymbolicLink() && st.mode & 0o077) open.push(`${p} ${(st.mode & 0o777).toString(8)}`);
  }
  return open;
}

/** How many files and folders `roots` hold (the roots too): a check over none proves nothing. */
export function countEntries(...roots: string[]): number {
  let n = 0;
  for (const root of roots) for (const _ of walk(root)) n++;
  return n;
}

/** Opens every file (0666) and folder (0777) under `root`, as an earlier release (or a careless copy) left them. */
export function openAsAnEarlierRelease(root: string): number {
  let n = 0;
  for (const { p, st } of walk(root)) {
    if (st.isSymbolicLink()) continue;
    fs.chmodSync(p, st.isDirectory() ? 0o777 : 0o666);
    n++;
  }
  return n;
}

/** The output of an app's last start (tests/helpers/app.ts marks each start in its log). */
export const lastStart = (logs: string) => logs.slice(logs.lastIndexOf('\n--- start '));
