import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { call, token } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0007 on a database the release before it made: the nonprofit gains null preferredName
// and website, the grant a workflow session derived from its id, and an Idempotency-Key stored
// before it replays as a read answers. (From sdk-compat.test.ts.)

// Its own account (a client is issued for it), EIN, Connect, key and grant: the walked database
// holds other steps' rows, and the sandbox account is nobody's in particular.
const NAME = 'sdk-compat-0006';
const ACCOUNT = '11111111-1111-4111-8111-111111110007';
const NONPROFIT = '22222222-2222-4222-8222-222222220007';
const GRANT = '0b7a4c1e-5d2f-4e8a-9c3b-1a2b3c4d0007';
const EIN = '530190007';
const CID = 'test_2Q3sXQ8b1dY7cN4kP0mZr9T0007';
const API_KEY = `sk_test_${'K'.repeat(28)}0007`;
const REQUEST = { amount: 15000, fundId: 'fidelity-charitable', firstName: 'Old', lastName: 'Donor', email: 'old@example.org' };
const WFS = /^wfs_[0-9A-Za-z]{27}$/;
const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');
// The stored request hash of an Idempotency-Key: create-grant.ts's canonical JSON of the parsed body.
const requestHash = sha256(JSON.stringify(Object.fromEntries(Object.entries({ ...REQUEST, coveredFees: false }).sort(([a], [b]) => (a < b ? -1 : 1)))));
const oldGrant = {
  id: GRANT,
  connectId: CID,
  nonprofitId: NONPROFIT,
  trackingId: 'GC-OLD007',
  amount: 15000,
  feeAmount: 435,
  coveredFees: false,
  status: 'Initiated',
  fundId: 'fidelity-charitable',
  fundName: 'Fidelity Charitable',
  firstName: 'Old',
  lastName: 'Donor',
  email: 'old@example.org',
  phone: null,
  note: null,
  metadata: {},
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};
const SESSION = `wfs_${GRANT.replaceAll('-', '')}`;

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0007: opens with every row, the nonprofit gains null preferredName and website, the grant a session derived from its id; a stored Idempotency-Key replays as a read answers',
    release: '0006_receipt_duplicate_when_read',
    accounts: [NAME],
    rows: `insert into service.accounts (id, name) values ('${ACCOUNT}', '${NAME}');
       insert into service.nonprofits (id, ein, name, contact, created_at, updated_at) values
         ('${NONPROFIT}', '${EIN}', 'Old Literacy', '{"email":"old@example.org"}', '2026-10-01T00:00:00Z', '2026-10-01T00:00:00Z');
       insert into service.connects (id, account_id, nonprofit_id, name, api_key, api_key_hash) values
         ('${CID}', '${ACCOUNT}', '${NONPROFIT}', 'Old Literacy', '${API_KEY}', '${sha256(API_KEY)}');
       insert into service.grants (id, account_id, connect_id, nonprofit_id, tracking_id, amount, fee_amount, covered_fees, status, fund_id, fund_name, first_name, last_name, email, created_at, updated_at) values
         ('${GRANT}', '${ACCOUNT}', '${CID}', '${NONPROFIT}', '${oldGrant.trackingId}', 15000, 435, false, 'Initiated', 'fidelity-charitable', 'Fidelity Charitable', 'Old', 'Donor', 'old@example.org', '2026-11-01T10:00:00Z', '2026-11-01T10:00:00Z');
       insert into service.idempotency_keys (connect_id, key, request_hash, status_code, body, created_at) values
         ('${CID}', 'old-key', '${requestHash}', 201, '${JSON.stringify(oldGrant)}', now());`,
    check: async (app) => {
      const otok = await token(app, app.clients[NAME]);
      const np = await call(app, 'GET', `/v1/nonprofit/${EIN}`, { token: otok });
      assert.equal(np.status, 200, np.text);
      assert.deepEqual(np.body, {
        id: NONPROFIT,
        ein: EIN,
        name: 'Old Literacy',
        preferredName: null,
        website: null,
        createdAt: '2026-10-01T00:00:00.000Z',
        updatedAt: '2026-10-01T00:00:00.000Z',
      });
      const grant = await call(app, 'GET', `/v1/grants/${GRANT}`, { token: otok });
      assert.equal(grant.status, 200, grant.text);
      assert.deepEqual(grant.body, { ...oldGrant, workflowSessionId: SESSION });

      // The replay, after the reads above (it adds a grant of its own beside the old one).
      const replay = await call(app, 'POST', '/v1/grants', {
        token: otok,
        body: REQUEST,
        headers: { 'x-service-api-key': API_KEY, 'idempotency-key': 'old-key' },
      });
      assert.equal(replay.status, 201, replay.text);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.body, { ...oldGrant, workflowSessionId: SESSION });
      const fresh = await call(app, 'POST', '/v1/grants', { token: otok, body: REQUEST, headers: { 'x-service-api-key': API_KEY } });
      assert.equal(fresh.status, 201, fresh.text);
      assert.match(fresh.body.workflowSessionId, WFS, 'new grants get a KSUID session');
    },
  },
];
