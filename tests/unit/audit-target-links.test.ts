import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auditTargetLinks } from '../../lib/console/audit/target-links';

const EP = 'ep_2pQz9fYvJ0bXcL1sK3mN4oP5qR6';
const MSG = 'msg_2pQz9fYvJ0bXcL1sK3mN4oP5qR6';
const RECEIVER = '0b6f5d1e-8a3c-4c1e-9d2a-7f1e2d3c4b5a';

test('audit targets link to their pages: webhook, case, receiver, the message of an attempt', () => {
  assert.deepEqual(auditTargetLinks('message.resend', `${EP} ${MSG} atmpt_2pQz9fYvJ0bXcL1sK3mN4oP5qR6`), [
    { id: EP, href: `/webhooks/${EP}` },
    { id: MSG, href: `/cases/${MSG}` },
    { id: 'atmpt_2pQz9fYvJ0bXcL1sK3mN4oP5qR6', href: `/webhooks/${EP}/messages/${MSG}` },
  ]);
  assert.deepEqual(auditTargetLinks('webhook.create', `${EP} ${RECEIVER}`)[1], { id: RECEIVER, href: `/receivers/${RECEIVER}` });
  assert.deepEqual(auditTargetLinks('receiver.update', RECEIVER), [{ id: RECEIVER, href: `/receivers/${RECEIVER}` }]);
  assert.deepEqual(auditTargetLinks('export', RECEIVER), [{ id: RECEIVER, href: `/receivers/${RECEIVER}` }]);
  assert.deepEqual(auditTargetLinks('alert-rule.create', RECEIVER), [{ id: RECEIVER, href: '/alerts' }]);
  assert.deepEqual(auditTargetLinks('webhook.recover', `${EP} rcvr_2pQz9fYvJ0bXcL1sK3mN4oP5qR6`)[1].href, `/webhooks/${EP}`);
  assert.deepEqual(auditTargetLinks('receipt.forward', '42'), [{ id: '42', href: '/receipts/42' }]);
  assert.deepEqual(auditTargetLinks('login', ''), []);
  assert.deepEqual(auditTargetLinks('export', 'something-else'), [{ id: 'something-else', href: null }]);
});
