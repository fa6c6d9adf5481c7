import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

// The docs say what is true: every link in every Markdown file resolves inside the repository, and
// every file or folder that they name in backticks (ARCHITECTURE.md's map, README.md, docs/) exists.

const root = path.resolve(import.meta.dirname, '../..');
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const files = new Set(tracked);
const dirs = new Set(
  tracked.flatMap((f) =>
    f
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
const basenames = new Set(tracked.map((f) => path.posix.basename(f)));
const topLevel = new Set(tracked.map((f) => f.split('/')[0]));
const exists = (p: string) => files.has(p) || dirs.has(p);

/** Markdown links `[text](target)` and `![alt](target)` that are not URLs or same-page anchors, resolved from their file. */
export function brokenLinks(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(target.split('#')[0])));
    if (resolved.startsWith('..') || !exists(resolved.replace(/\/$/, ''))) out.push(`${file}: [${target}]`);
  }
  return out;
}

/**
 * Backticked repository paths: a token under one of the repository's top-level folders, or a file
 * name with a source extension (found anywhere in the tree). Patterns (`<area>`, `{slug}`, `*`, `…`)
 * and routes are not paths.
 */
export function missingPaths(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    const token = m[1].replace(/[.,:;]+$/, '').replace(/:\d+(-\d+)?$/, '');
    if (/[<>{}*…$]/.test(token)) continue;
    if (token.startsWith('../')) {
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), token));
      if (resolved.startsWith('..') || !exists(resolved.replace(/\/$/, ''))) out.push(`${file}: \`${token}\``);
      continue;
    }
    const first = token.split('/')[0];
    if (token.includes('/') && topLevel.has(first) && first !== token) {
      if (!exists(token.replace(/\/$/, ''))) out.push(`${file}: \`${token}\``);
    } else if (!token.includes('/') && /^[\w.-]+\.(ts|tsx|mjs|js|md|json|sql|css)$/.test(token) && !token.startsWith('.')) {
      if (!basenames.has(token)) out.push(`${file}: \`${token}\``);
    }
  }
  return out;
}

test('every link in every Markdown file resolves inside the repository', () => {
  const broken = tracked
    .filter((f) => f.endsWith('.md') && !f.includes('node_modules/'))
    .flatMap((f) => brokenLinks(f, fs.readFileSync(path.join(root, f), 'utf8')));
  assert.deepEqual(broken, []);
});

test('every repository path the docs name in backticks exists (ARCHITECTURE.md, README.md, docs/)', () => {
  const missing = tracked.filter((f) => f.endsWith('.md')).flatMap((f) => missingPaths(f, fs.readFileSync(path.join(root, f), 'utf8')));
  assert.deepEqual(missing, []);
});

test('the checks catch what they are for', () => {
  assert.deepEqual(brokenLinks('docs/a.md', '[spec](../../shared/CONTRACT.md) [ok](API.md) [web](https://example.com) [here](#x)'), [
    'docs/a.md: [../../shared/CONTRACT.md]',
  ]);
  assert.deepEqual(
    missingPaths(
      'X.md',
      '`lib/nowhere/gone.ts` `lib/db/client.ts` `gone-too.ts` `client.ts` `lib/service/<area>/openapi.ts` `GET /v1/webhooks` `../shared/CONTRACT.md`',
    ),
    ['X.md: `lib/nowhere/gone.ts`', 'X.md: `gone-too.ts`', 'X.md: `../shared/CONTRACT.md`'],
  );
});

/** The folders a "### `lib/x/`, folder by folder" table of ARCHITECTURE.md names, one row each (`name/`). */
export function foldersInTable(architecture: string, parent: string): string[] | null {
  const start = architecture.indexOf(`### \`${parent}/\`, folder by folder`);
  if (start < 0) return null;
  const table = architecture
    .slice(start)
    .split('\n')
    .slice(1)
    .join('\n')
    .split(/\n(?=#)/)[0];
  return [...table.matchAll(/^\| `([\w-]+)\/` \|/gm)].map((m) => m[1]);
}

for (const parent of ['lib/console', 'lib/service']) {
  test(`ARCHITECTURE.md names every folder of ${parent}, and only those`, () => {
    const folders = fs
      .readdirSync(path.join(root, parent), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const named = foldersInTable(fs.readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8'), parent);
    assert.ok(named, `ARCHITECTURE.md has a "${parent}/, folder by folder" table`);
    assert.deepEqual([...named].sort(), folders, `the table's rows against the folders of ${parent}`);
  });
}
test('the folder check reads what it is for', () => {
  const doc =
    '### `lib/x/`, folder by folder\n\n| folder | what |\n|---|---|\n| `a/` | one |\n| `b/` | two, with `c/` inside |\n\n## Next\n| `z/` | not this table |\n';
  assert.deepEqual(foldersInTable(doc, 'lib/x'), ['a', 'b']);
  assert.equal(foldersInTable(doc, 'lib/y'), null);
});

/**
 * Sections that code comments send a reader to — README "Single sign-on", docs/API.md, "What a process
 * may cache" — each the start of a heading of that file (a section that moved leaves the pointer lying).
 */
export function missingSections(file: string, text: string, headingsOf: (doc: string) => string[] | null): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b(README(?:\.md)?|[\w./-]+\.md)[,:]?\s*\(?["“]([^"”\n]{2,80})["”]/g)) {
    const doc = m[1].startsWith('README') ? 'README.md' : m[1];
    const headings = headingsOf(doc);
    if (!headings?.some((h) => h === m[2] || h.startsWith(m[2]))) out.push(`${file}: ${m[1]} "${m[2]}"`);
  }
  return out;
}
const headingsOf = (doc: string): string[] | null => {
  const found = files.has(doc) ? doc : tracked.find((f) => f.endsWith(`/${doc}`) && f.endsWith('.md'));
  if (!found) return null;
  return [...fs.readFileSync(path.join(root, found), 'utf8').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((h) => h[1]);
};

test('every section a code comment points at is a heading of that file', () => {
  const code = tracked.filter((f) => /^(app|lib|components|scripts|tests)\//.test(f) && /\.(ts|tsx|mjs)$/.test(f) && f !== 'tests/unit/doc-references.test.ts');
  assert.deepEqual(
    code.flatMap((f) => missingSections(f, fs.readFileSync(path.join(root, f), 'utf8'), headingsOf)),
    [],
  );
  // …and the check can fail: a section of the wrong file, a section that is not there.
  const q = '"';
  assert.deepEqual(
    missingSections(
      'x.ts',
      `// README ${q}Quick start${q}; docs/GUIDE.md, ${q}Single sign-on${q}; README, ${q}Roles${q}; docs/API.md, ${q}What a process may cache${q}`,
      headingsOf,
    ),
    ['x.ts: README "Roles"'],
  );
});

// The README is the front door and PERFORMANCE a map: guides go to docs/, history to git (issue 51).
test('README.md stays at most 200 lines and docs/PERFORMANCE.md at most 300', () => {
  const lines = (f: string) => fs.readFileSync(path.join(root, f), 'utf8').split('\n').length;
  assert.ok(lines('README.md') <= 200, `README.md has ${lines('README.md')} lines`);
  assert.ok(lines('docs/PERFORMANCE.md') <= 300, `docs/PERFORMANCE.md has ${lines('docs/PERFORMANCE.md')} lines`);
});
