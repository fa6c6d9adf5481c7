import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ansiCQuote, curlCommand, shellQuote } from '../../lib/console/export/curl-command';

// The "Copy as cURL" builder (pure); tests/integration/forward.test.ts runs its commands with bash.

const URL = 'https://console.example.org/ingest/acme';

test('shell and ANSI-C quoting keep every character', () => {
  assert.equal(shellQuote(`it's`), `'it'\\''s'`);
  assert.equal(ansiCQuote('a\nb\tc\r\\d\'e"$f`g'), `$'a\\nb\\tc\\r\\\\d\\'e"$f\`g'`);
  assert.equal(ansiCQuote('\x01\x7f ü ✓'), `$'\\x01\\x7f ü ✓'`);
});

test('headers in stored order, hop-by-hop ones left out, an empty value sent as `name;`, curl’s own defaults turned off', () => {
  const { command, utf8 } = curlCommand({
    method: 'POST',
    url: URL,
    headers: [
      ['Host', 'x'],
      ['X-B', '2'],
      ['content-length', '3'],
      ['X-A', ''],
      ['Connection', 'keep-alive'],
      ['webhook-id', 'msg_1'],
    ],
    body: Buffer.from('{}'),
  });
  assert.equal(utf8, true);
  assert.equal(
    command,
    [
      `curl '${URL}'`,
      `-H 'X-B: 2'`,
      `-H 'X-A;'`,
      `-H 'webhook-id: msg_1'`,
      `-H 'User-Agent:'`,
      `-H 'Accept:'`,
      `-H 'Content-Type:'`,
      `-H 'Expect:'`,
      `--data-binary $'{}'`,
    ].join(' \\\n  '),
  );
});

test('a body that is not UTF-8, holds a NUL or starts with @ is sent from base64, with a note', () => {
  for (const [bytes, why] of [
    [Buffer.from([0xff, 0x41]), 'is not UTF-8'],
    [Buffer.from('a\0b'), 'holds a NUL byte'],
    [Buffer.from('@/etc/passwd'), 'starts with @'],
  ] as const) {
    const { command, utf8 } = curlCommand({ method: 'POST', url: URL, headers: [['content-type', 'application/json']], body: bytes });
    assert.equal(utf8, false);
    assert.ok(command.startsWith(`# The body ${why}`), command);
    assert.ok(command.includes(`base64 -d <<'GC_BODY' | curl`));
    assert.ok(command.includes(`\n${bytes.toString('base64')}\nGC_BODY`));
    assert.ok(command.includes('--data-binary @-'));
  }
});

test('the method: -X only where curl would not pick it; an empty POST still sends a body', () => {
  assert.doesNotMatch(curlCommand({ method: 'GET', url: URL, headers: [], body: null }).command, /-X|data-binary/);
  assert.match(curlCommand({ method: 'PUT', url: URL, headers: [], body: Buffer.from('x') }).command, /-X 'PUT'/);
  assert.match(curlCommand({ method: 'POST', url: URL, headers: [], body: Buffer.alloc(0) }).command, /--data-binary ''$/);
});
