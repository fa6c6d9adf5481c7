import fs from 'node:fs';
import path from 'node:path';
import { env } from '@/lib/env';
import { processSingleton } from '@/lib/process-singleton';

// What the console keeps on disk is its machine account's alone: the embedded store (DATA_DIR; its
// write-ahead log holds every row written, the session secret and live session ids among them),
// the archive of purged bodies (ARCHIVE_DIR: donors' data) and the backups (BACKUP_DIR: all of it,
// every secret unencrypted). Any other local account that could read them could sign in as anyone.
//
// So every process that opens a store or writes these files comes here first (lib/db/client.ts,
// restore.ts, the CLI's backup of a stopped store): its umask becomes 077, and the three folders,
// where they exist, are corrected — folders 0700, files 0600, all the way down — with one log line
// when anything was looser (a store of an earlier release: PGlite made 0666 files in 0755 folders).
// PGlite ignores the umask (its WASM sets each new file's mode itself, with a umask of its own of
// 022: a new store's files come out 0666, the relcache files it writes at each open 0644), so what
// it made is tightened, silently, once it has opened; DATA_DIR is 0700 by then, so no other account
// could reach those files meanwhile.

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
const OPEN_BITS = 0o077;
const canChmod = process.platform !== 'win32';

/** From now on this process creates files and folders that only its own account can read or write. */
export function setPrivateUmask(): void {
  if (canChmod) process.umask(OPEN_BITS);
}

/** `dir` (and any parent it needs) created 0700. */
export function makePrivateFolder(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
}

export type TTightened = { files: number; folders: number; refused: string[] };

/**
 * Makes `root` and everything under it private: a folder group or others may use becomes 0700, such
 * a file 0600. Symbolic links are neither followed nor changed; what cannot be changed (owned by
 * another account) is listed in `refused`. Nothing happens where `root` does not exist.
 */
export function tightenTree(root: string): TTightened {
  const done: TTightened = { files: 0, folders: 0, refused: [] };
  if (!canChmod) return done;
  const visit = (p: string, st: fs.Stats) => {
    if (st.isSymbolicLink()) return;
    const folder = st.isDirectory();
    if (st.mode & OPEN_BITS) {
      try {
        fs.chmodSync(p, folder ? PRIVATE_FOLDER_MODE : PRIVATE_FILE_MODE);
        done[folder ? 'folders' : 'files']++;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') done.refused.push(p);
      }
    }
    if (!folder) return;
    let names: string[];
    try {
      names = fs.readdirSync(p);
    } catch {
      return; // gone meanwhile, or unreadable: not ours
    }
    for (const name of names) {
      const child = path.join(p, name);
      const cst = lstatOrNull(child);
      if (cst) visit(child, cst);
    }
  };
  const st = statOrNull(root); // the root itself may be a link (DATA_DIR → a larger disk)
  if (st) visit(root, st);
  return done;
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

function describe(setting: string, dir: string, t: TTightened): string | null {
  const made = [t.files && count(t.files, 'file'), t.folders && count(t.folders, 'folder')].filter(Boolean).join(' and ');
  const refused = t.refused.length
    ? `${count(t.refused.length, 'entry')} owned by another account left as ${t.refused.length === 1 ? 'it was' : 'they were'} (${t.refused.slice(0, 2).join(', ')}${t.refused.length > 2 ? ', …' : ''})`
    : '';
  if (!made && !refused) return null;
  return `${setting} ${dir}: ${[made, refused].filter(Boolean).join('; ')}`;
}

const state = processSingleton('private-files', () => ({ corrected: false }));

/**
 * Once per process, before it opens a store: the umask set to 077, and DATA_DIR, ARCHIVE_DIR and
 * BACKUP_DIR (those that exist) corrected to 0700 folders and 0600 files, in one log line naming
 * what was changed (none when nothing was).
 */
export function keepFilesPrivate(): void {
  setPrivateUmask();
  if (state.corrected) return;
  state.corrected = true;
  const folders: [string, string | undefined][] = [
    ['DATA_DIR', env.DATA_DIR],
    ['ARCHIVE_DIR', env.ARCHIVE_DIR],
    ['BACKUP_DIR', env.BACKUP_DIR],
  ];
  const lines = folders.flatMap(([setting, dir]) => {
    if (!dir) return [];
    const abs = path.resolve(dir);
    return describe(setting, abs, tightenTree(abs)) ?? [];
  });
  if (lines.length) console.warn(`Made private what other local accounts could reach (files now 0600, folders 0700): ${lines.join('; ')}.`);
}
