import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

// The suite's shared app is the default (tests/helpers/shared-app.ts): an integration file that
// starts an app of its own (~3 CPU seconds per start, in both CI store passes) says why on its first
// line, `// Own app: <reason>.`, and the count of startApp call sites may only fall. Lower CEILING as
// files move to the shared app (issue 51 aims at about 25).

const CEILING = 58;
const dir = path.resolve(import.meta.dirname, '../integration');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.test.ts'));
const sources = new Map(files.map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
const starts = (source: string) => source.match(/\bstartApp\(/g)?.length ?? 0;

/** The files that start an app of their own without saying why on their first line. */
export function withoutReason(entries: [string, string][]): string[] {
  return entries.filter(([, source]) => starts(source) > 0 && !/^\/\/ Own app: .{20,}/.test(source.split('\n')[0])).map(([name]) => name);
}

test('every integration file that starts an app of its own says why on its first line', () => {
  assert.deepEqual(withoutReason([...sources]), [], 'add "// Own app: <reason>." as the first line, or use sharedApp()');
});

test('the check itself: a file with a startApp call and no reason is named; one with a reason or none is not', () => {
  const reasoned = '// Own app: a retry schedule of an hour, so failed messages stay failed.\nconst app = await startApp();';
  assert.deepEqual(
    withoutReason([
      ['a.test.ts', "import x from 'y';\nconst app = await startApp();"],
      ['b.test.ts', reasoned],
      ['c.test.ts', 'const app = await sharedApp();'],
    ]),
    ['a.test.ts'],
  );
  assert.deepEqual(withoutReason([['d.test.ts', '// Own app: yes.\nstartApp()']]), ['d.test.ts'], 'a reason says something');
});

test(`no more than ${CEILING} own-app starts across the integration files`, () => {
  const total = [...sources.values()].reduce((n, s) => n + starts(s), 0);
  assert.ok(total <= CEILING, `${total} startApp calls (ceiling ${CEILING}): use the shared app, or fold starts together`);
});
