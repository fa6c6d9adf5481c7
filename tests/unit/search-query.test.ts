import assert from 'node:assert/strict';
import { test } from 'node:test';
import { donorNameTag } from '../../lib/donor-name';
import { classifyQuery, tagFor } from '../../lib/console/investigation/search-query';

test('a donor’s full name is searched by the tag the service puts on the grant’s messages', () => {
  assert.deepEqual(classifyQuery('  Grace   Hopper '), { kind: 'donor-name', q: 'Grace Hopper' });
  assert.equal(tagFor('donor-name', 'Grace Hopper'), 'name:grace hopper');
  // the service tags with donorNameTag(`${firstName} ${lastName}`): both spell it alike
  const { kind, q } = classifyQuery('GRACE hopper');
  assert.equal(tagFor(kind, q), donorNameTag('Grace Hopper'));
  for (const name of ['José de la Cruz', 'Mary-Kate O’Neil', "D'Arcy St. John"]) assert.equal(classifyQuery(name).kind, 'donor-name', name);
});

test('ids, e-mails and single words keep their kinds', () => {
  assert.equal(classifyQuery('gc-7kq2m9').kind, 'tracking-id');
  assert.equal(classifyQuery('ada@example.org').kind, 'email');
  assert.equal(classifyQuery('Hopper').kind, 'unknown');
  assert.equal(classifyQuery('order 1234').kind, 'unknown', 'digits are no name');
});
