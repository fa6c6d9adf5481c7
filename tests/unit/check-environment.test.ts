import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explainTokenFailure } from '../../lib/console/connect-api/check-environment';
import { ConnectApiError } from '../../lib/console/connect-api/errors';

// The start's one line about a failed token exchange names the variable to fix, never the secret.

const config = {
  baseUrl: 'http://127.0.0.1:4030',
  authUrl: 'http://127.0.0.1:4030',
  audience: 'https://aud.example',
  clientId: 'ops-client',
  clientSecret: 'top-secret-value-123',
};
const failure = (status: number, title?: string, message = 'x') =>
  new ConnectApiError(message, { status, operation: 'token exchange', problem: title ? { title } : null });

const CASES: [string, ConnectApiError, RegExp][] = [
  [
    'no answer',
    failure(0, 'API unreachable', 'Could not reach the API (ECONNREFUSED).'),
    /could not reach http:\/\/127\.0\.0\.1:4030\/oauth\/token \(ECONNREFUSED\): check CONNECT_AUTH_URL/,
  ],
  ['not a token endpoint', failure(404, 'Token exchange failed'), /answered 404, so it is not a token endpoint: set CONNECT_AUTH_URL/],
  ['wrong credentials', failure(401, 'invalid_client'), /client ops-client .*check CONNECT_CLIENT_ID and CONNECT_CLIENT_SECRET/],
  ['wrong audience', failure(403, 'access_denied'), /audience https:\/\/aud\.example .*set CONNECT_API_AUDIENCE/],
  ['throttled', failure(429), /check CONNECT_CLIENT_ID and CONNECT_CLIENT_SECRET/],
];
for (const [name, err, expected] of CASES) {
  test(`${name} → one sentence naming the variable`, () => {
    const line = explainTokenFailure('sandbox', config, err);
    assert.match(line, expected);
    assert.equal(line.includes('\n'), false);
    assert.equal(line.includes(config.clientSecret), false);
  });
}

test('production failures name the PRODUCTION_* variables', () => {
  assert.match(explainTokenFailure('production', config, failure(403, 'access_denied')), /PRODUCTION_AUDIENCE/);
  assert.match(explainTokenFailure('production', config, failure(0, 'API unreachable')), /PRODUCTION_AUTH_URL/);
});
