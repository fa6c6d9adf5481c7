import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { configuredStore, describeStore, maskedDatabaseUrl, storeDigest } from '../../lib/db/store-identity';

// Which store a process works on, said to people (no password) and as a digest two processes compare
// (the console CLI and the app on PORT, issue 50.6).

test('a PostgreSQL URL is named without its password; the digest tells the database, not how it is spelled', () => {
  const url = 'postgres://gc:s3cret-pw@DB.example.org:5433/console?sslmode=require&password=other-secret';
  const words = describeStore(configuredStore({ DATABASE_URL: url, DATA_DIR: './.data' }));
  assert.equal(words, 'PostgreSQL postgres://gc:****@DB.example.org:5433/console?sslmode=require&password=****');
  assert.ok(!words.includes('s3cret') && !words.includes('other-secret'));
  assert.equal(maskedDatabaseUrl('not a url'), 'an unreadable URL');
  const digest = (u: string) => storeDigest({ kind: 'postgres', url: u });
  assert.equal(
    digest('postgres://a:x@localhost/console'),
    digest('postgresql://b@127.0.0.1:5432/console'),
    'loopback names, the default port and the user are one store',
  );
  assert.notEqual(digest('postgres://a@localhost/console'), digest('postgres://a@localhost/console_restored'));
  assert.match(digest('postgres://a@localhost/console'), /^[0-9a-f]{16}$/);
});

test('an embedded store is its DATA_DIR, by its real path: a link to it is the same store, a copy elsewhere another', (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-store-id-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, 'data'));
  fs.symlinkSync(path.join(root, 'data'), path.join(root, 'link'));
  const at = (dir: string) => configuredStore({ DATA_DIR: dir });
  assert.equal(describeStore(at(path.join(root, 'data'))), `the embedded store in DATA_DIR=${path.join(root, 'data')}`);
  assert.equal(storeDigest(at(path.join(root, 'link'))), storeDigest(at(path.join(root, 'data'))));
  assert.notEqual(storeDigest(at(path.join(root, 'restored'))), storeDigest(at(path.join(root, 'data'))));
  assert.notEqual(storeDigest(at(path.join(root, 'data'))), storeDigest({ kind: 'postgres', url: 'postgres://localhost/data' }));
});
