import type { Metadata } from 'next';
import { Card, PageHeader } from '@/components/console/page-header';
import { ErasureForm } from './erasure-form';
import { RetentionSettingsForm } from './settings-form';
import { Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';
import { retentionStatus } from '@/lib/console/retention/retention-status';
import { requireRole } from '@/lib/console/staff/session';

export const metadata: Metadata = { title: 'Retention' };
export const dynamic = 'force-dynamic';

const LABELS: Record<string, string> = { receipt_bodies: 'Receipt bodies and headers', receipts: 'Receipts (the rows)' };

// The console's retention purge: what it keeps and for how long, what it purged, what is due now.
// The service's purge runs beside it in the worker process; its counts are in GET /metrics
// (gc_purged_total{what}). Admins only.
export default async function RetentionPage() {
  await requireRole('admin', '/retention');
  const s = await retentionStatus();
  return (
    <div className="space-y-5">
      <PageHeader title="Retention" />
      <p className="text-sm text-slate-600">
        The worker purges receipt bodies after {s.settings.RECEIPT_BODY_RETENTION} and receipts after {s.settings.RECEIPT_RETENTION}. A
        purged receipt keeps its skeleton (ids, message id, addresses, verdict, status, size and SHA-256, times). A receipt that failed its
        check or was answered with an error keeps its body until a later valid arrival resolves it, at most {s.settings.RETENTION_HOLD_MAX}.
      </p>
      <Card title="Settings">
        <RetentionSettingsForm settings={s.effective} />
      </Card>
      <Card title="Progress">
        <Table>
          <thead>
            <tr>
              <Th>What</Th>
              <Th>Retention</Th>
              <Th>Purged so far</Th>
              <Th>Due now</Th>
              <Th>Last purge</Th>
            </tr>
          </thead>
          <TBody>
            {s.kinds.map((k) => (
              <tr key={k.what} data-testid={`retention-${k.what}`}>
                <Td>{LABELS[k.what] ?? k.what}</Td>
                <Td>{k.retention}</Td>
                <Td>{k.purged.toLocaleString('en-US')}</Td>
                <Td>
                  {k.dueCapped ? 'at least ' : ''}
                  {k.due.toLocaleString('en-US')}
                </Td>
                <Td>
                  <Timestamp value={k.lastPurgeAt} />
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
        <p className="mt-2 text-sm text-slate-700" data-testid="retention-held">
          Kept for open investigations: {s.held.toLocaleString('en-US')} receipt{s.held === 1 ? '' : 's'} past their retention whose delivery is unresolved.
        </p>
        <p className="mt-2 text-xs text-slate-500">
          Last pass started <Timestamp value={s.pass.startedAt} />, ended <Timestamp value={s.pass.endedAt} />.
        </p>
      </Card>
      <Card title="Erase one donor">
        <p className="mb-3 text-sm text-slate-600">
          Replaces every grant field, message payload, donor tag, attempt answer and receipt that carries the donor with a tombstone (erased and
          the SHA-256 of what was there), in the service and in this console. Ids, amounts, statuses and times stay, so cases still reconcile.
          The audit log records a hash of the e-mail, never the e-mail.
        </p>
        <ErasureForm />
      </Card>
    </div>
  );
}
