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
