import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DEFAULT_AUDIENCE, parseEnv, ZEnv } from '../../lib/env';
import { PRODUCTION_FLOORS, TUNING_KEYS } from '../../lib/env-tuning';

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

test('no credential by default; the published ones of earlier releases are refused with one line naming the setting, never the value', () => {
  const env = parseEnv({});
  assert.equal(env.CONSOLE_ADMIN_PASSWORD, undefined, 'generated at the first start');
  assert.equal(env.SANDBOX_CLIENT_SECRET, undefined, 'generated at the first start');
  assert.equal(env.CONNECT_CLIENT_SECRET, undefined, 'the stored sandbox secret, read from the database');
  assert.equal(parseEnv({ SANDBOX_CLIENT_SECRET: 'an-own-secret-1' }).CONNECT_CLIENT_SECRET, 'an-own-secret-1');
  for (const [key, value] of [
    ['CONSOLE_ADMIN_PASSWORD', 'console-admin-123'],
    ['SANDBOX_CLIENT_SECRET', 'sandbox-secret-change-me'],
  ]) {
    assert.throws(
      () => parseEnv({ [key]: value }),
      (err: Error) => {
        assert.equal(
          err.message,
          `Invalid configuration: ${key} is the published default of earlier releases, which anyone may know: choose another, or leave it unset to have one generated at the first start (got ${value.length} characters)`,
        );
        return true;
      },
    );
  }
});

test('values are parsed, URLs trimmed of trailing slashes', () => {
  const env = parseEnv({
    PORT: '4000',
    PUBLIC_URL: 'https://gc.example.org/',
    DELIVERY_RETRY_SCHEDULE: '1, 2,3',
    DELIVERY_ALLOW_PRIVATE: 'false',
    DATABASE_URL: '',
  });
  assert.equal(env.PUBLIC_URL, 'https://gc.example.org');
  assert.deepEqual(env.DELIVERY_RETRY_SCHEDULE, [1, 2, 3]);
  assert.equal(env.DELIVERY_ALLOW_PRIVATE, false);
  assert.equal(env.DATABASE_URL, undefined);
});

test('the console names an API one way: with or without /v1, the same root', () => {
  for (const base of ['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1/', 'http://127.0.0.1:4010/', 'http://127.0.0.1:4010']) {
    const env = parseEnv({ SERVICE_MODE: 'off', CONNECT_API_BASE_URL: base });
    assert.equal(env.CONNECT_API_BASE_URL, 'http://127.0.0.1:4010', base);
  }
  const prod = parseEnv({ PRODUCTION_API_BASE_URL: 'https://api.example.org/v1/' });
  assert.equal(prod.PRODUCTION_API_BASE_URL, 'https://api.example.org');
});

test("console-only: the auth URL defaults to the API root, the audience to the default one, not the embedded service's", () => {
  const env = parseEnv({
    SERVICE_MODE: 'off',
    PORT: '4020',
    CONNECT_API_BASE_URL: 'https://sandbox.example.org/v1',
    CONNECT_AUDIENCE: 'https://embedded.example',
  });
  assert.equal(env.CONNECT_AUTH_URL, 'https://sandbox.example.org');
  assert.equal(env.CONNECT_API_AUDIENCE, DEFAULT_AUDIENCE);
  assert.equal(env.PUBLIC_URL, 'http://localhost:4020', "the app's own URL is untouched");
});

test('console and service in one app: the console uses the embedded service, its auth URL and its audience', () => {
  const env = parseEnv({ PUBLIC_URL: 'https://gc.example.org', CONNECT_AUDIENCE: 'https://embedded.example' });
  assert.equal(env.CONNECT_API_BASE_URL, 'https://gc.example.org');
  assert.equal(env.CONNECT_AUTH_URL, 'https://gc.example.org');
  assert.equal(env.CONNECT_API_AUDIENCE, 'https://embedded.example');
  // …but a service in this app does not lend its audience to a console pointed elsewhere.
  const elsewhere = parseEnv({ CONNECT_AUDIENCE: 'https://embedded.example', CONNECT_API_BASE_URL: 'https://sandbox.example.org/v1' });
  assert.equal(elsewhere.CONNECT_API_AUDIENCE, DEFAULT_AUDIENCE);
});

test("explicit settings win: a separate token issuer, the console's own audience, production's auth URL", () => {
  const env = parseEnv({
    SERVICE_MODE: 'off',
    CONNECT_API_BASE_URL: 'https://api.sandbox.example.org/v1',
    CONNECT_AUTH_URL: 'https://auth.sandbox.example.org/',
    CONNECT_API_AUDIENCE: 'https://api.sandbox.example.org',
    PRODUCTION_API_BASE_URL: 'https://api.example.org/v1',
  });
  assert.equal(env.CONNECT_AUTH_URL, 'https://auth.sandbox.example.org');
  assert.equal(env.CONNECT_API_AUDIENCE, 'https://api.sandbox.example.org');
  assert.equal(env.PRODUCTION_AUTH_URL, 'https://api.example.org', 'production too: the auth URL defaults to its API root');
  assert.equal(
    parseEnv({ PRODUCTION_API_BASE_URL: 'https://api.example.org', PRODUCTION_AUTH_URL: 'https://auth.example.org' }).PRODUCTION_AUTH_URL,
    'https://auth.example.org',
  );
});

test('the token issuer is a deployment setting: PUBLIC_URL/ unless TOKEN_ISSUER says otherwise', () => {
  assert.equal(parseEnv({ PUBLIC_URL: 'https://a.example.org/' }).TOKEN_ISSUER, 'https://a.example.org/');
  assert.equal(parseEnv({ PUBLIC_URL: 'https://a.example.org', TOKEN_ISSUER: 'https://auth.example.org/' }).TOKEN_ISSUER, 'https://auth.example.org/');
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
  [{ CONNECT_API_BASE_URL: 'api.example.org/v1' }, /^Invalid configuration: CONNECT_API_BASE_URL must be an absolute http\(s\) URL/],
  [{ SERVICE_MODE: 'maybe' }, /^Invalid configuration: SERVICE_MODE must be on or off/],
];
for (const [source, message] of bad) {
  test(`bad ${Object.keys(source)[0]} → one line naming it`, () => {
    assert.throws(
      () => parseEnv(source),
      (err: Error) => {
        assert.equal(err.message.split('\n').length, 1);
        assert.match(err.message, message);
        return true;
      },
    );
  });
}

// Advanced single sign-on: documented with the internal tuning (docs/TUNING.md), not in .env.example.
const OIDC_ADVANCED = ['OIDC_NAME', 'OIDC_SCOPES', 'OIDC_EMAIL_VERIFIED_BY_PROVIDER', 'OIDC_ALLOW_HTTP'];

test('operator settings alone are in .env.example (at most ~40) and OPERATIONS.md; tuning is in docs/TUNING.md only', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const example = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
  const operations = fs.readFileSync(path.join(root, 'docs/OPERATIONS.md'), 'utf8');
  const tuningDoc = fs.readFileSync(path.join(root, 'docs/TUNING.md'), 'utf8');
  // The names in the first column of a doc's settings table.
  const table = (doc: string) =>
    doc
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((l) => l.split(' | ')[0])
      .join('\n');
  const internal = [...TUNING_KEYS, ...OIDC_ADVANCED];
  for (const key of Object.keys(ZEnv.in.shape).filter((k) => k !== 'NODE_ENV')) {
    const listed = new RegExp(`^#? ?${key}=`, 'm').test(example);
    if (internal.includes(key)) {
      assert.equal(listed, false, `.env.example leaves out the internal ${key}`);
      assert.ok(table(tuningDoc).includes(`\`${key}\``), `docs/TUNING.md names ${key}`);
      assert.equal(table(operations).includes(`\`${key}\``), false, `OPERATIONS.md's table leaves out the internal ${key}`);
    } else {
      assert.ok(listed, `.env.example lists ${key}`);
      assert.ok(table(operations).includes(`\`${key}\``), `docs/OPERATIONS.md's table names ${key}`);
    }
  }
  const count = example.match(/^#? ?[A-Z][A-Z0-9_]+=/gm)?.length ?? 0;
  // 45: the standard OpenTelemetry endpoint joined the 44 of issue 51's cut.
  assert.ok(count <= 45, `.env.example has ${count} settings`);
});

test('a running deployment keeps each floor (retention 1h, alert evaluation 1 s, …); the test harness may go under', () => {
  assert.throws(() => parseEnv({ ALERT_EVAL_MS: '200' }), /Invalid configuration: ALERT_EVAL_MS must be at least 1000 \(got "200"\)$/);
  assert.throws(() => parseEnv({ RECEIPT_BODY_RETENTION: '5s' }), /Invalid configuration: RECEIPT_BODY_RETENTION must be at least 1h \(got "5s"\)$/);
  assert.throws(() => parseEnv({ DELIVERY_DISABLE_AFTER_MS: '20000' }), /DELIVERY_DISABLE_AFTER_MS must be at least 60000/);
  assert.throws(() => parseEnv({ BACKUP_EVERY: '1s' }), /BACKUP_EVERY must be at least 60s/);
  const harness = parseEnv({ TEST_HARNESS: '1', ALERT_EVAL_MS: '200', RECEIPT_BODY_RETENTION: '5s', DELIVERY_DISABLE_AFTER_MS: '20000', BACKUP_EVERY: '1s' });
  assert.deepEqual([harness.ALERT_EVAL_MS, harness.RECEIPT_BODY_RETENTION, harness.DELIVERY_DISABLE_AFTER_MS, harness.BACKUP_EVERY], [200, 5000, 20000, 1000]);
  assert.equal(parseEnv({ ALERT_EVAL_MS: '1000', RECEIPT_BODY_RETENTION: '1h' }).RECEIPT_BODY_RETENTION, 3600_000, 'the floor itself is allowed');
});

test('DELIVERY_ALLOW_PRIVATE: unset, refused under NODE_ENV=production (npm start), allowed otherwise; a value given wins', () => {
  assert.equal(parseEnv({ NODE_ENV: 'production' }).DELIVERY_ALLOW_PRIVATE, false);
  assert.equal(parseEnv({ NODE_ENV: 'development' }).DELIVERY_ALLOW_PRIVATE, true);
  assert.equal(parseEnv({}).DELIVERY_ALLOW_PRIVATE, true);
  assert.equal(parseEnv({ NODE_ENV: 'production', DELIVERY_ALLOW_PRIVATE: 'true' }).DELIVERY_ALLOW_PRIVATE, true);
  assert.equal(parseEnv({ NODE_ENV: 'development', DELIVERY_ALLOW_PRIVATE: 'false' }).DELIVERY_ALLOW_PRIVATE, false);
  assert.throws(() => parseEnv({ DELIVERY_ALLOW_PRIVATE: 'maybe' }), /DELIVERY_ALLOW_PRIVATE must be true or false/);
});

test('alert delivery and the reconciliation day: SMTP_URL, ALERT_EMAIL_FROM, ALERT_REPEAT, CONSOLE_TIME_ZONE', () => {
  const defaults = parseEnv({});
  assert.equal(defaults.SMTP_URL, undefined);
  assert.equal(defaults.ALERT_REPEAT, 4 * 3600_000);
  assert.equal(defaults.CONSOLE_TIME_ZONE, 'UTC');
  assert.match(defaults.ALERT_EMAIL_FROM, /<alerts@localhost>/);
  const set = parseEnv({
    SMTP_URL: 'smtp://u:p@127.0.0.1:2525',
    ALERT_EMAIL_FROM: 'Ops <ops@example.org>',
    ALERT_REPEAT: '30m',
    CONSOLE_TIME_ZONE: 'America/New_York',
  });
  assert.equal(set.SMTP_URL, 'smtp://u:p@127.0.0.1:2525');
  assert.equal(set.ALERT_REPEAT, 30 * 60_000);
  assert.equal(set.CONSOLE_TIME_ZONE, 'America/New_York');
  assert.throws(() => parseEnv({ CONSOLE_TIME_ZONE: 'Mars/Olympus_Mons' }), /CONSOLE_TIME_ZONE must be an IANA time zone name.*Mars\/Olympus_Mons/);
  assert.throws(() => parseEnv({ ALERT_REPEAT: 'often' }), /ALERT_REPEAT must be a duration/);
  assert.throws(() => parseEnv({ ALERT_EMAIL_FROM: 'not an address' }), /ALERT_EMAIL_FROM must be an address/);
  // A bad SMTP_URL is named, its value (which may hold a password) is not printed.
  assert.throws(
    () => parseEnv({ SMTP_URL: 'http://user:hunter2@mail' }),
    (err: Error) => /SMTP_URL must be an smtp/.test(err.message) && !err.message.includes('hunter2'),
  );
});

test("the configuration table gives each whole-number setting's range as the start checks it (docs/OPERATIONS.md, issue 50.8)", () => {
  const root = path.resolve(import.meta.dirname, '../..');
  // Operator settings in OPERATIONS.md's table, internal tuning in TUNING.md's; a floor for a running deployment is the least allowed.
  const rows = ['docs/OPERATIONS.md', 'docs/TUNING.md'].flatMap((f) =>
    fs
      .readFileSync(path.join(root, f), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('| `')),
  );
  const refusal = (key: string, value: string) => {
    try {
      parseEnv({ [key]: value });
      return null;
    } catch (err) {
      return (err as Error).message.split('\n').find((l) => l.startsWith(`Invalid configuration: ${key} `)) ?? null;
    }
  };
  let checked = 0;
  for (const key of Object.keys(ZEnv.in.shape)) {
    if (!refusal(key, '1.5')?.includes('must be a whole number')) continue; // not a whole-number setting
    const min = Math.max(Number(/must be at least (-?\d+)/.exec(refusal(key, '-99999999999999') ?? '')?.[1]), PRODUCTION_FLOORS[key] ?? -Infinity);
    const max = Number(/must be at most (\d+)/.exec(refusal(key, '99999999999999') ?? '')?.[1]);
    assert.ok(Number.isFinite(min) && Number.isFinite(max), `${key}: its bounds`);
    const row = rows.find((r) => r.split(' | ')[0].includes(`\`${key}\``));
    assert.ok(row, `docs/OPERATIONS.md or docs/TUNING.md has a row for ${key}`);
    assert.ok(row.split(' | ')[2].includes(`${min}–${max}`), `${key}: the allowed column says ${min}–${max}: ${row.split(' | ')[2]}`);
    checked++;
  }
  assert.ok(checked >= 15, `${checked} whole-number settings checked`);
});
