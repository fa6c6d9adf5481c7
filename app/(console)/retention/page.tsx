import type { Metadata } from 'next';
import { ErrorCallout } from '@/components/console/callout';
import { Card } from '@/components/console/card';
import { PageHeader } from '@/components/console/page-header';
import { ErasureForm } from './erasure-form';
import { PartitionsCard } from './partitions-card';
import { RetentionSettingsForm } from './settings-form';
import { Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';
import { loadRetentionView } from '@/lib/console/retention/retention-view';
import { hasRole } from '@/lib/console/staff/roles';

export const metadata: Metadata = { title: 'Retention' };
export const dynamic = 'force-dynamic';

const LABELS: Record<string, string> = { receipt_bodies: 'Receipt bodies and headers', receipts: 'Receipts (the rows)' };

// The console's retention purge: what it keeps and for how long, what it purged, what is due now;
// and the service's retention for the connected account (EXT /v1/retention). Its purge runs in the
// service's worker; its counts are in GET /metrics (gc_purged_total{what}). Every role sees the
// settings; an admin changes them and erases donors.
export default async function RetentionPage() {
  const {
    staff,
    view: { status: s, service, receiptPartitions },
  } = await loadRetentionView();
  const admin = hasRole(staff.role, 'admin');
  return (
    <div className="space-y-5">
      <PageHeader title="Retention" />
      <p className="text-sm text-slate-600">
        The worker purges receipt bodies after {s.settings.RECEIPT_BODY_RETENTION} and receipts after {s.settings.RECEIPT_RETENTION}. A purged receipt keeps its
        skeleton (ids, message id, addresses, verdict, status, size and SHA-256, times). A receipt that failed its check or was answered with an error keeps its
        body until a later valid arrival resolves it, at most {s.settings.RETENTION_HOLD_MAX}.
      </p>
      <Card title="Console settings">
        <RetentionSettingsForm settings={s.effective} endpoint="/api/retention" canEdit={admin} resetLabel="use the environment’s" testId="retention-settings">
          <p id="retention-settings-grammar" className="text-xs text-slate-500">
            Durations: a whole number and a unit, <code>90d</code>, <code>12h</code>, <code>30m</code>, <code>45s</code> (1s to 3650d); bodies are kept no
            longer than their rows.{admin ? '' : ' Only an admin may change them.'}
          </p>
        </RetentionSettingsForm>
      </Card>
      <Card title={`Service settings for the ${staff.environment} account`}>
        {service.data ? (
          <RetentionSettingsForm
            settings={service.data.settings}
            endpoint="/api/retention/service"
            canEdit={admin}
            resetLabel="use the service’s default"
            testId="service-retention-settings"
          >
            <p id="service-retention-settings-grammar" className="text-xs text-slate-500">
              How long the service keeps this account’s message payloads and attempt answers, and its messages. The service’s environment sets the defaults for
              every account; a value set here applies to this account only, from the service purge’s next pass. Payloads are kept no longer than their messages.
              {admin ? '' : ' Only an admin may change them.'}
            </p>
          </RetentionSettingsForm>
        ) : service.unsupported ? (
          <p className="text-sm text-slate-600" data-testid="service-retention-unsupported">
            This service does not offer its retention settings (EXT <code>/v1/retention</code>): they are set in its environment.
          </p>
        ) : (
          <ErrorCallout error={service.error} title="The service’s retention could not be read" />
        )}
      </Card>
      <Card title="Console purge progress">
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
      <PartitionsCard
        title="Receipt partitions"
        intro="Receipts past their retention leave with their partition, one interval of arrivals each, dropped whole by this console’s purge (after the archive, when there is one). None is kept past its time: unresolved deliveries and share links keep bodies, not rows."
        partitions={[receiptPartitions]}
      />
      {service.data ? <PartitionsCard partitions={service.data.partitions} /> : null}
      {admin ? (
        <Card title="Erase one donor">
          <p className="mb-3 text-sm text-slate-600">
            Replaces every grant field, message payload, donor tag, attempt answer and receipt that carries the donor with a tombstone (erased and the SHA-256
            of what was there), in the service and in this console. Ids, amounts, statuses and times stay, so cases still reconcile. The audit log records a
            hash of the e-mail, never the e-mail.
          </p>
          <ErasureForm />
        </Card>
      ) : null}
    </div>
  );
}
