import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { hashSecret, verifySecret } from '@/lib/crypto/secrets';
import { getDb } from '@/lib/db/client';
import { sessions, settings, users } from '@/lib/db/schema/console';
import { PUBLISHED_CREDENTIALS } from '@/lib/env';
import { randomString } from '@/lib/ids';
import { SANDBOX_SECRET_SETTING } from './connect-api/stored-sandbox-secret';
import { readSetting } from './settings';
import { normalizeEmail, oneTimePassword } from './staff/users';

// No install opens with a published credential. When the settings leave them unset, the first start
// generates the first admin's password (one-time: the first sign-in asks for a new one; stored hashed,
// as any user's) and the sandbox client's secret (kept in console.settings, as the session secret is:
// the console reaches its own service as that client), prints them once, and appends them to
// DATA_DIR/initial-credentials (mode 0600; with DATABASE_URL, in the DATA_DIR of the instance that
// made them). Later starts, and the other instances on one PostgreSQL, find them made and point to
// that file. All of it is one transaction whose first insert is the lock: two processes starting
// at once on one database block on the same row, and the second finds the first's values.

const POINTER_SETTING = 'initial_credentials';
export const INITIAL_CREDENTIALS_FILE = 'initial-credentials';

export type TGenerated = { admin?: { email: string; password: string; replacedPublished?: boolean }; sandboxSecret?: string };
/** Where the generated credentials were written: the file, the machine it is on, and whether it holds the admin's first password. */
export type TFiled = { file: string; host: string; at: string; admin: boolean };
/** `firstPasswordSpent`: the filed admin password was one-time and its admin has since chosen their own (the file's no longer signs in). */
export type TSettled = { generated: TGenerated | null; sandboxSecret?: string; filed: TFiled | null; firstPasswordSpent?: boolean };

/** The lines appended to the file: comments, then KEY=value lines a shell can source. */
function fileText(g: TGenerated, sandboxClientId: string, at: string): string {
  const lines = [
    `# Giving Connect Console: credentials generated at its first start, ${at}.`,
    '# Keep this file private (mode 0600), or delete it once the values are kept elsewhere.',
  ];
  if (g.admin?.replacedPublished)
    lines.push(`# ${g.admin.email}'s password was the published default of earlier releases: this one-time password replaced it.`);
  if (g.admin)
    lines.push(
      '# The admin password is one-time: the first sign-in asks for a new one.',
      `CONSOLE_ADMIN_EMAIL=${g.admin.email}`,
      `CONSOLE_ADMIN_PASSWORD=${g.admin.password}`,
    );
  if (g.sandboxSecret) lines.push(`SANDBOX_CLIENT_ID=${sandboxClientId}`, `SANDBOX_CLIENT_SECRET=${g.sandboxSecret}`);
  return `${lines.join('\n')}\n`;
}

/** Appends to DATA_DIR/initial-credentials, made 0600 (and the folder 0700 when this makes it). */
function writeFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.appendFileSync(file, text, { mode: 0o600 });
  fs.chmodSync(file, 0o600); // an older file keeps its mode otherwise
}

/**
 * The admin `email` of a store an earlier release made, when it still signs in with the published
 * default password of those releases (anyone may know it, and sign in first to choose their own).
 */
async function publishedAdmin(email: string): Promise<{ id: string; hash: string } | null> {
  const [user] = await (await getDb()).select({ id: users.id, hash: users.passwordHash }).from(users).where(eq(users.email, email));
  if (!user?.hash || !(await verifySecret(PUBLISHED_CREDENTIALS.CONSOLE_ADMIN_PASSWORD, user.hash))) return null;
  return { id: user.id, hash: user.hash };
}

/**
 * The first admin's password and the sandbox client's secret, generated when `admin.password` /
 * `sandbox.secret` are not given and the store has none yet (the admin: a store with no staff user).
 * `sandbox: null`: no embedded service, no sandbox client.
 */
export async function settleInitialCredentials(options: {
  admin: { email: string; password?: string };
  sandbox: { clientId: string; secret?: string } | null;
  dataDir: string;
}): Promise<TSettled> {
  const db = await getDb();
  const email = normalizeEmail(options.admin.email);
  // The slow hash only when a first admin may be wanted; the transaction checks again.
  const wantAdmin = options.admin.password === undefined && (await db.select({ n: count() }).from(users))[0].n === 0;
  // An upgraded store whose admin kept the published password gets a one-time one instead, like a first start's.
  const published = options.admin.password === undefined && !wantAdmin ? await publishedAdmin(email) : null;
  const admin = wantAdmin || published ? { email, password: oneTimePassword() } : null;
  const adminHash = admin ? await hashSecret(admin.password) : null;
  const wantSandbox = options.sandbox !== null && options.sandbox.secret === undefined;
  const file = path.resolve(options.dataDir, INITIAL_CREDENTIALS_FILE);
  const at = new Date().toISOString();

  const settled = await db.transaction(async (tx) => {
    const generated: TGenerated = {};
    if (admin && adminHash && (await tx.select({ n: count() }).from(users))[0].n === 0) {
      const made = await tx
        .insert(users)
        .values({ email, passwordHash: adminHash, role: 'admin', mustChangePassword: true })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (made.length) generated.admin = admin;
    }
    if (published && admin && adminHash) {
      // Only while the published hash is still there: of two instances starting at once, one replaces it.
      const where = and(eq(users.id, published.id), eq(users.passwordHash, published.hash));
      const replaced = await tx.update(users).set({ passwordHash: adminHash, mustChangePassword: true }).where(where).returning({ id: users.id });
      if (replaced.length) {
        await tx.delete(sessions).where(eq(sessions.userId, published.id)); // whoever signed in with it is out
        generated.admin = { ...admin, replacedPublished: true };
      }
    }
    let sandboxSecret: string | undefined;
    if (wantSandbox) {
      const candidate = randomString(48);
      const made = await tx
        .insert(settings)
        .values({ key: SANDBOX_SECRET_SETTING, value: candidate })
        .onConflictDoNothing()
        .returning({ value: settings.value });
      if (made.length) generated.sandboxSecret = sandboxSecret = candidate;
      else [{ value: sandboxSecret }] = await tx.select({ value: settings.value }).from(settings).where(eq(settings.key, SANDBOX_SECRET_SETTING));
    }
    if (!generated.admin && !generated.sandboxSecret) return { generated: null, sandboxSecret };
    const [earlier] = await tx.select({ value: settings.value }).from(settings).where(eq(settings.key, POINTER_SETTING));
    const adminFiled = Boolean(generated.admin) || Boolean(earlier && (JSON.parse(earlier.value) as Partial<TFiled>).admin);
    const filed: TFiled = { file, host: os.hostname(), at, admin: adminFiled };
    const pointer = JSON.stringify(filed);
    await tx
      .insert(settings)
      .values({ key: POINTER_SETTING, value: pointer })
      .onConflictDoUpdate({ target: settings.key, set: { value: pointer } });
    // Written before the commit: a file that cannot be written undoes the lot, so nothing is made that nobody was told.
    writeFile(file, fileText(generated, options.sandbox?.clientId ?? '', at));
    return { generated, sandboxSecret, filed };
  });
  if (settled.generated) return { ...settled, filed: settled.filed ?? null };
  const pointer = await readSetting(POINTER_SETTING);
  const filed = pointer ? (JSON.parse(pointer) as TFiled) : null;
  const [adminRow] = filed?.admin ? await db.select({ must: users.mustChangePassword }).from(users).where(eq(users.email, email)) : [];
  return { generated: null, sandboxSecret: settled.sandboxSecret, filed, firstPasswordSpent: adminRow ? !adminRow.must : undefined };
}
