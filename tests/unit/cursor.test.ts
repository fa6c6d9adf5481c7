import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { openCursor, sealCursor } from '@/lib/http/cursor';
import { ApiError } from '@/lib/http/errors';
import { badPageToken, parsePageLimit } from '@/lib/http/page-limit';

const KEY = randomBytes(32);
const AT = new Date('2026-11-23T12:34:56.789Z');

describe('page token codec', () => {
  test('a sealed cursor opens to the same row, for the same list', () => {
    const token = sealCursor(KEY, AT, 'msg_2abc', 'messages:ep_1');
    assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(openCursor(KEY, token, 'messages:ep_1'), { t: AT.toISOString(), id: 'msg_2abc' });
  });

  test('another list’s token is foreign, not a position in this one', () => {
    assert.equal(openCursor(KEY, sealCursor(KEY, AT, 'x', 'messages:ep_1'), 'messages:ep_2'), 'foreign');
  });

  test('a token sealed with another key, tampered with, or malformed is not one of ours', () => {
    const token = sealCursor(KEY, AT, 'x', 's');
    const [payload, mac] = token.split('.');
    // (the MAC's first character is flipped: the last one of 22 carries bits that decoding drops)
    const forged = Buffer.from(JSON.stringify({ t: AT.toISOString(), id: 'y', s: JSON.parse(Buffer.from(payload, 'base64url').toString()).s })).toString(
      'base64url',
    );
    for (const bad of [
      sealCursor(randomBytes(32), AT, 'x', 's'),
      `${forged}.${mac}`,
      `${payload}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`,
      payload,
      '',
      '.',
      'a.b',
      `${payload}.${mac}.x`,
    ]) {
      assert.equal(openCursor(KEY, bad, 's'), null, bad);
    }
  });

  test('a validly sealed payload that is not a cursor opens to null', () => {
    // Sealing is the only way to get a valid MAC: build one over junk with the same key.
    const payload = Buffer.from('{"t":"yesterday","id":""}').toString('base64url');
    const mac = createHmac('sha256', KEY).update(payload).digest().subarray(0, 16).toString('base64url');
    assert.equal(openCursor(KEY, `${payload}.${mac}`, 's'), null);
  });
});

describe('paging vocabulary', () => {
  const sp = (q: string) => new URLSearchParams(q);

  test('pageLimit: the fallback when absent; 1–100 as given', () => {
    assert.equal(parsePageLimit(sp(''), 25), 25);
    assert.equal(parsePageLimit(sp('pageLimit=1'), 25), 1);
    assert.equal(parsePageLimit(sp('pageLimit=100'), 25), 100);
  });

  test('pageLimit: anything else is a 400 naming it', () => {
    for (const bad of ['0', '101', '-1', '1.5', 'ten', '', '0010', ' 5']) {
      assert.throws(
        () => parsePageLimit(sp(`pageLimit=${encodeURIComponent(bad)}`), 25),
        (err: unknown) => {
          assert.ok(err instanceof ApiError);
          assert.equal(err.status, 400);
          assert.deepEqual(
            err.extra?.errors?.map((e: { path: string }) => e.path),
            ['pageLimit'],
          );
          return true;
        },
        bad,
      );
    }
  });

  test('badPageToken names the issuer, or says the token is another list’s', () => {
    assert.match(badPageToken('console').message, /not one this console issued/);
    assert.match(badPageToken('service').message, /not one this service issued/);
    assert.match(badPageToken('service', { foreign: true }).message, /another list/);
    assert.equal(badPageToken('service').status, 400);
  });
});
