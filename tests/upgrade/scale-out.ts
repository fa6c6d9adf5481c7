import assert from 'node:assert/strict';
import { exportJWK, generateKeyPair } from 'jose';
import { withAppDb } from '../helpers/app';
import { call, token } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0005 on a database an earlier release (0003) left with two active signing keys (a
// concurrent first start): it opens with one, its data and both public keys intact. (From
// scale-out.test.ts.) The walked app signs every step's tokens with the key this step leaves
// active: no other step writes signing keys, and the app makes one only when none is active.

const EIN = '530190003'; // its own nonprofit: EINs are unique in the walked database

const rows: string[] = [];
for (const [kid, age] of [
  ['older', '2 minutes'],
  ['newer', '1 minute'],
]) {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const publicJwk = JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' });
  const privateJwk = JSON.stringify(await exportJWK(privateKey));
  rows.push(
    `insert into service.signing_keys (kid, private_jwk, public_jwk, created_at) values ('${kid}', '${privateJwk}', '${publicJwk}', now() - interval '${age}');`,
  );
}
rows.push(`insert into service.nonprofits (ein, name, contact) values ('${EIN}', 'Kept Food Bank', '{}');`);

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0005: a database left with two active keys by an earlier release opens with one, its data and both public keys intact',
    release: '0003_throttle_expiry',
    rows: rows.join('\n'),
    check: async (app) => {
      const jwt = await token(app);
      assert.equal(JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString()).kid, 'newer', 'the key every instance already used keeps signing');
      const jwks = await call(app, 'GET', '/.well-known/jwks.json');
      assert.deepEqual(jwks.body.keys.map((k: { kid: string }) => k.kid).sort(), ['newer', 'older']);
      const np = await call(app, 'GET', `/v1/nonprofit/${EIN}`, { token: jwt });
      assert.equal(np.status, 200, np.text);
      assert.equal(np.body.name, 'Kept Food Bank');
      const keys = await withAppDb(app, (query) =>
        query<{ kid: string; active: boolean }>('select kid, retired_at is null as active from service.signing_keys order by kid'),
      );
      assert.deepEqual(keys, [
        { kid: 'newer', active: true },
        { kid: 'older', active: false },
      ]);
    },
  },
];
