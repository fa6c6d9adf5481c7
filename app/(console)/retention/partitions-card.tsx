import { Card } from '@/components/console/card';
import { CARD_ROW, Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';
import type { TAccountRetention } from '@/lib/console/connect-api';
import { formatBytes } from '@/lib/db/disk-space';
import { formatDuration } from '@/lib/duration';

// The service's tables partitioned by time (EXT GET /v1/retention's `partitions`): how many partitions, their span and
// size, the next one retention drops and when, and those past their time kept because they hold what must stay.

type TPartitions = NonNullable<TAccountRetention['partitions']>;

const bare = (name: string) => name.replace(/^[a-z_]+\./, '');

const SERVICE_INTRO =
  'Rows past the service’s message retention leave with their partition, dropped whole by the service’s purge (after the archive, when there is one).';

/** A store's partitioned tables; the service's by default, the console's own with their title and words. */
export function PartitionsCard({
  partitions,
  title = 'Service partitions',
  intro = SERVICE_INTRO,
}: {
  partitions: TPartitions | null;
  title?: string;
  intro?: string;
}) {
  return (
    <Card title={title}>
      {partitions === null ? (
        <p className="text-sm text-slate-600" data-testid="partitions-unsupported">
          This service does not report its partitions: its retention deletes rows one by one.
        </p>
      ) : (
        <>
          <p className="mb-2 text-sm text-slate-600">{intro}</p>
          <Table label={title} cards>
            <thead>
              <tr>
                <Th>Table</Th>
                <Th>Partitions</Th>
                <Th>From</Th>
                <Th>To</Th>
                <Th>Size</Th>
                <Th>Next drop</Th>
              </tr>
            </thead>
            <TBody cards>
              {partitions.map((p) => (
                <tr key={p.table} className={CARD_ROW} data-testid={`partitions-${p.table}`}>
                  <Td card>
                    <strong className="font-medium">{p.table}</strong>
                  </Td>
                  <Td card="Partitions">{p.count}</Td>
                  <Td card="From">{p.oldestFrom ? <Timestamp value={p.oldestFrom} /> : 'the beginning'}</Td>
                  <Td card="To">
                    <Timestamp value={p.newestTo} />
                  </Td>
                  <Td card="Size">{formatBytes(p.bytes)}</Td>
                  <Td card="Next drop">
                    {p.nextDrop ? (
                      <span>
                        <code>{bare(p.nextDrop.partition)}</code> after <Timestamp value={p.nextDrop.at} /> (retention {formatDuration(p.retention)})
                      </span>
                    ) : (
                      'none'
                    )}
                  </Td>
                </tr>
              ))}
            </TBody>
          </Table>
          {partitions.flatMap((p) =>
            p.held.map((h) => (
              <p key={h.partition} className="mt-2 text-sm text-slate-700" data-testid="partition-held">
                Kept past its retention: <code>{bare(h.partition)}</code> holds{' '}
                {h.pending ? `${h.pending} message${h.pending === 1 ? '' : 's'} with a delivery not yet resolved` : ''}
                {h.pending && h.accountKept ? ' and ' : ''}
                {h.accountKept ? `${h.accountKept} message${h.accountKept === 1 ? '' : 's'} this account keeps longer` : ''}
                {h.pending || h.accountKept ? '' : 'messages of other accounts of this service'}; kept{' '}
                {h.until ? (
                  <>
                    until <Timestamp value={h.until} />
                  </>
                ) : (
                  'until those deliveries are resolved'
                )}
                , its other rows leaving one by one.
              </p>
            )),
          )}
        </>
      )}
    </Card>
  );
}
