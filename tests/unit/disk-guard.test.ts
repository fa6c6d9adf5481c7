import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isReadOnly } from '../../lib/db/disk-guard';

// Which statements the embedded store's disk guard lets through on a nearly full disk: plain reads only.
// (tests/integration/full-disk.test.ts fills a real disk under the running app.)

test('reads go through; anything that may write, lock a row or step a sequence waits for space', () => {
  for (const read of [
    'select 1',
    '  SELECT id, body from console.receipts where receiver_id = $1 limit 50',
    'with x as (select 1) select * from x',
    'show server_version',
    'explain select 1',
  ])
    assert.equal(isReadOnly(read), true, read);
  for (const write of [
    'insert into console.receipts (id) values ($1)',
    'update console.receivers set name = $1',
    'delete from console.sessions where expires_at < now()',
    'select * from service.messages where id = $1 for update skip locked',
    'select id from t for no key update',
    'select * from t for share',
    "select nextval('seq')",
    'select pg_advisory_xact_lock(1)',
    'select * into copy from t',
    'with d as (delete from t returning id) select count(*) from d',
    'checkpoint',
    'begin',
    'vacuum analyze console.receipts',
  ])
    assert.equal(isReadOnly(write), false, write);
});
