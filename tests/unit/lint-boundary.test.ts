import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';

// The console reaches the service only over HTTP: the lint rule that keeps it so must really fire.

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });
const code = "import { createClient } from '@/lib/service/auth/clients';\nexport const x = createClient;\n";

async function restricted(file: string): Promise<boolean> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.some((m) => m.ruleId === 'no-restricted-imports');
}

for (const file of ['lib/console/example.ts', 'app/(console)/example/page.tsx', 'app/ingest/[slug]/example.ts', 'components/console/example.tsx']) {
  test(`console code may not import lib/service: ${file}`, async () => {
    assert.equal(await restricted(file), true);
  });
}

test('service code may', async () => {
  assert.equal(await restricted('lib/service/example.ts'), false);
});

// Shared code imports neither half; components never import app/.
async function restrictedCode(file: string, source: string): Promise<boolean> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return result.messages.some((m) => m.ruleId === 'no-restricted-imports');
}
const fromConsole = "import { listReceivers } from '@/lib/console/receivers';\nexport const x = listReceivers;\n";
const fromApp = "import { fetchJson } from '@/app/(console)/x';\nexport const x = fetchJson;\n";
for (const file of [
  'lib/http/example.ts',
  'lib/db/example.ts',
  'lib/crypto/example.ts',
  'lib/net/example.ts',
  'lib/metrics/example.ts',
  'lib/openapi/example.ts',
  'lib/readiness/example.ts',
]) {
  test(`shared code imports neither half: ${file}`, async () => {
    assert.equal(await restrictedCode(file, code), true, 'not lib/service');
    assert.equal(await restrictedCode(file, fromConsole), true, 'not lib/console');
  });
}
for (const file of ['components/console/example.tsx', 'components/connect/example.tsx']) {
  test(`components never import app/: ${file}`, async () => {
    assert.equal(await restrictedCode(file, fromApp), true);
  });
}
test('the console half may import lib/console, and app/ may import components', async () => {
  assert.equal(await restrictedCode('lib/console/example.ts', fromConsole), false);
  assert.equal(await restrictedCode('app/(console)/example/page.tsx', "import { Badge } from '@/components/console/badge';\nexport const x = Badge;\n"), false);
});

// Console pages, actions and routes go through their wrappers: no redaction, audit or database by hand.
for (const [what, source] of [
  ['asSeenBy', "import { asSeenBy } from '@/lib/console/staff/viewer-redaction';\nexport const x = asSeenBy;\n"],
  ['recordAudit', "import { recordAudit } from '@/lib/console/audit/record-audit';\nexport const x = recordAudit;\n"],
  ['audited', "import { audited } from '@/lib/console/audit/audited';\nexport const x = audited;\n"],
  ['getDb', "import { getDb } from '@/lib/db/client';\nexport const x = getDb;\n"],
  // One way into a page (staffView), an action (staffAction and its kin) or a route (withStaff): never the guard by hand.
  ['requireRole', "import { requireRole } from '@/lib/console/staff/session';\nexport const x = requireRole;\n"],
  ['getStaff', "import { getStaff } from '@/lib/console/staff/session';\nexport const x = getStaff;\n"],
]) {
  test(`app/(console) may not import ${what}`, async () => {
    assert.equal(await restrictedCode('app/(console)/example/page.tsx', source), true);
    assert.equal(await restrictedCode('app/(console)/api/example/route.ts', source), true);
    assert.equal(await restrictedCode('lib/console/example/example-view.ts', source), false, 'lib/console may');
  });
}
test('app/(console) may use the wrappers and a masking helper that is not redaction', async () => {
  assert.equal(
    await restrictedCode(
      'app/(console)/example/actions.ts',
      "import { staffAction } from '@/lib/console/staff/staff-action';\nexport const x = staffAction;\n",
    ),
    false,
  );
  assert.equal(
    await restrictedCode('app/(console)/example/page.tsx', "import { staffView } from '@/lib/console/staff/staff-view';\nexport const x = staffView;\n"),
    false,
  );
  assert.equal(
    await restrictedCode(
      'app/(console)/example/actions.ts',
      "import { setEnvironment } from '@/lib/console/staff/session';\nexport const x = setEnvironment;\n",
    ),
    false,
  );
  assert.equal(
    await restrictedCode('app/(console)/example/page.tsx', "import { maskEmail } from '@/lib/console/staff/viewer-redaction';\nexport const x = maskEmail;\n"),
    false,
  );
});

// Each half uses its own tables: one database, two schemas, neither half reading or writing the other's.
const tablesOf = (from: string) => `import { receipts, messages } from '${from}';\nexport const x = [receipts, messages];\n`;
const CONSOLE_FILES = [
  'lib/console/example.ts',
  'app/(console)/example/page.tsx',
  'app/(console)/api/example/route.ts',
  'app/api/example/route.ts',
  'app/ingest/[slug]/example.ts',
  'app/share/[token]/page.tsx',
  'components/console/example.tsx',
];
const SERVICE_FILES = ['lib/service/example.ts', 'app/v1/example/route.ts', 'app/oauth/token/route.ts', 'app/connect/[cid]/page.tsx'];
for (const file of CONSOLE_FILES) {
  test(`console code may not import the service's tables: ${file}`, async () => {
    for (const from of ['@/lib/db/schema/service', '@/lib/db/schema/service-webhooks', '@/lib/db/schema', '@/lib/db/schema/index', '../../db/schema/service']) {
      assert.equal(await restrictedCode(file, tablesOf(from)), true, from);
    }
  });
}
for (const file of SERVICE_FILES) {
  test(`service code may not import the console's tables: ${file}`, async () => {
    for (const from of ['@/lib/db/schema/console', '@/lib/db/schema/console-receivers', '@/lib/db/schema', '../../db/schema/console']) {
      assert.equal(await restrictedCode(file, tablesOf(from)), true, from);
    }
  });
}
// The service never imports the console's code either (its donor pages included): what both halves use is shared (lib/money.ts).
for (const file of SERVICE_FILES) {
  test(`service code may not import lib/console: ${file}`, async () => {
    for (const from of ['@/lib/console/format', '@/lib/console', '../../console/receivers']) {
      assert.equal(await restrictedCode(file, `import { x as y } from '${from}';\nexport const x = y;\n`), true, from);
    }
  });
}
test('each half may import its own tables', async () => {
  assert.equal(await restrictedCode('lib/console/example.ts', tablesOf('@/lib/db/schema/console')), false);
  assert.equal(await restrictedCode('lib/service/example.ts', tablesOf('@/lib/db/schema/service')), false);
  assert.equal(await restrictedCode('lib/service/example.ts', tablesOf('@/lib/db/schema/columns')), false);
});
