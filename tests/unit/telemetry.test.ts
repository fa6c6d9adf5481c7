import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

// Next's telemetry is off for every npm script: none runs `next` bare, and each script file that
// runs Next sets NEXT_TELEMETRY_DISABLED for it.

const root = path.resolve(import.meta.dirname, '../..');
const scripts: Record<string, string> = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;

for (const [name, command] of Object.entries(scripts)) {
  test(`npm run ${name} keeps Next's telemetry off`, () => {
    assert.doesNotMatch(command, /(^|[;&|]\s*)(npx\s+)?next(\s|$)/, `${name} runs next without NEXT_TELEMETRY_DISABLED: use node scripts/next.mjs`);
    const file = /^node (scripts\/\S+\.mjs)/.exec(command)?.[1];
    if (!file) return;
    const source = fs.readFileSync(path.join(root, file), 'utf8');
    if (/bin\('next'\)|node_modules\/\.bin\/next|scripts\/server\.mjs/.test(source)) {
      assert.match(source, /NEXT_TELEMETRY_DISABLED: '1'/, `${file} starts Next: it must turn telemetry off`);
    }
  });
}
