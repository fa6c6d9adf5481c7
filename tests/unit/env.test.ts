import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseEnv } from '../../lib/env';

test('defaults make a working sandbox', () => {
  const env = parseEnv({});
  assert.equal(env.PORT, 3000);
  assert.equal(env.PUBLIC_URL, 'http://localhost:3000');
  assert.equal(env.CONNECT_API_BASE_URL, 'http://localhost:3000');
  assert.equal(env.CONNECT_CLIENT_ID, env.SANDBOX_CLIENT_ID);
  assert.deepEqual(env.DELIVERY_RETRY_SCHEDULE, [5, 300, 1800, 7200, 18000, 36000, 36000]);
  assert.equal(env.DELIVERY_ALLOW_PRIVATE, true);
  assert.equal(env.DATABASE_URL, undefined);
});

test('values are parsed, URLs trimmed of trailing slashes', () => {
  const env = parseEnv({ PORT: '4000', PUBLIC_URL: 'https://gc.example.org/', DELIVERY_RETRY_SCHEDULE: '1, 2,3', DELIVERY_ALLOW_PRIVATE: 'false', DATABASE_URL: '' });
  assert.equal(env.PUBLIC_URL, 'https://gc.example.org');
  assert.deepEqual(env.DELIVERY_RETRY_SCHEDULE, [1, 2, 3]);
  assert.equal(env.DELIVERY_ALLOW_PRIVATE, false);
  assert.equal(env.DATABASE_URL, undefined);
});

const bad: [Record<string, string>, RegExp][] = [
  [{ PORT: 'abc' }, /^Invalid configuration: PORT must be a whole number \(got "abc"\)$/],
  [{ PORT: '70000' }, /^Invalid configuration: PORT must be at most 65535/],
  [{ DELIVERY_TIMEOUT_MS: '1.5' }, /^Invalid configuration: DELIVERY_TIMEOUT_MS must be a whole number/],
  [{ DELIVERY_RETRY_SCHEDULE: '5,,6' }, /^Invalid configuration: DELIVERY_RETRY_SCHEDULE must be comma-separated seconds/],
  [{ DELIVERY_ALLOW_PRIVATE: 'maybe' }, /^Invalid configuration: DELIVERY_ALLOW_PRIVATE must be true or false/],
  [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL must start with postgres/],
  [{ PUBLIC_URL: 'ftp://x' }, /^Invalid configuration: PUBLIC_URL must be an absolute http\(s\) URL/],
  [{ SESSION_SECRET: 'short' }, /^Invalid configuration: SESSION_SECRET must be at least 32 characters/],
  [{ SERVICE_MODE: 'maybe' }, /^Invalid configuration: SERVICE_MODE must be on or off/],
];
for (const [source, message] of bad) {
  test(`bad ${Object.keys(source)[0]} → one line naming it`, () => {
    assert.throws(() => parseEnv(source), (err: Error) => {
      assert.equal(err.message.split('\n').length, 1);
      assert.match(err.message, message);
      return true;
    });
  });
}
