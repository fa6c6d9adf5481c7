import type { Metadata } from 'next';
import Link from 'next/link';
import { Badge, DuplicateBadge, HttpCodeBadge, SuspiciousBadge, VerdictBadge } from '@/components/console/badge';
import { Callout } from '@/components/console/callout';
import { HeadersTable } from '@/components/console/headers-table';
import { BodyViewer } from '@/components/console/body-viewer/body-viewer';
import { SentVsReceived } from '@/components/console/body-viewer/sent-vs-received';
import { Card, DescriptionList } from '@/components/console/card';
import { PageHeader } from '@/components/console/page-header';
import { Timestamp } from '@/components/console/timestamp';
import { loadReceiptView } from '@/lib/console/receivers/receipt-view';
import type { TSecretCheck } from '@/lib/console/receivers/signature-forensics';
import { CopyCurl } from '@/components/console/copy-curl';
import { ForwardList } from '@/components/console/forward-list';
import { AdoptSecretButton } from './adopt-secret-button';
import { ForwardForm } from './forward-form';
import { plural } from '@/lib/console/format';

export const metadata: Metadata = { title: 'Receipt' };

const decoder = new TextDecoder('utf-8');

export default async function ReceiptPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { view } = await loadReceiptView(id);
  const { receipt, receiver, webhook, forensics: f, sentBody, webhookFingerprint, holdsWebhookSecret, operator, curl, forwards, bodyKept } = view;
  return (
    <div className="space-y-5">
      <PageHeader
        eyebrow={
          <span>
            <Link href={`/receivers/${receiver.id}`} className="hover:underline">
              {receiver.name}
            </Link>{' '}
            / receipt #{receipt.id}
          </span>
        }
        title={
          <span className="inline-flex flex-wrap items-center gap-2">
            Receipt #{receipt.id} <VerdictBadge verdict={receipt.verdict} reason={receipt.verdictReason} />
            {view.suspicion ? <SuspiciousBadge /> : receipt.duplicate ? <DuplicateBadge /> : null}
          </span>
        }
        description={receipt.verdictReason}
        actions={
          <>
            {curl ? <CopyCurl command={curl.command} utf8={curl.utf8} /> : null}
            {receipt.messageId ? (
              <Link href={`/cases/${encodeURIComponent(receipt.messageId)}`} className="text-sm font-medium text-indigo-700 hover:underline">
                Case for {receipt.messageId} →
              </Link>
            ) : null}
          </>
        }
      />
      {view.suspicion ? (
        <Callout tone="error" title="Suspicious arrival: not from the service">
          <span data-testid="receipt-suspicious">
            This message was delivered and verified here at <Timestamp value={view.suspicion.verifiedAt} withMs /> (
            <Link href={`/receipts/${view.suspicion.verifiedReceiptId}`} className="font-medium underline">
              receipt #{view.suspicion.verifiedReceiptId}
            </Link>
            ). This copy carries the same message id, but its signature did not verify
            {f.bodyMatches === false ? ' and its body differs from what the service sent' : ''}: the donation is not missing, and a resend would put a second
            copy of it into the receiving system. Do not resend; check who else posts to this receiver, and rotate its URL and signing secret.
          </span>
        </Callout>
      ) : null}
      <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-2">
        <Card title="Signature forensics">
          {receipt.bodyGone ? (
            <p className="text-sm text-slate-600" data-testid="forensics-gone">
              The body and the signature headers are gone ({receipt.bodyGone.note}): nothing is left to check again. The verdict recorded when it arrived
              stands.
            </p>
          ) : (
            <div data-testid="forensics" className="space-y-3">
              <DescriptionList
                items={[
                  ['Headers', f.family ? `${f.family}-* (${plural(f.signatureCount, 'signature')})` : 'no signature headers'],
                  [
                    'Timestamp skew',
                    f.skewSeconds === null
                      ? '—'
                      : `${f.skewSeconds} s ${Math.abs(f.skewSeconds) > 300 ? '(outside the ±300 s tolerance)' : '(within tolerance)'}`,
                  ],
                  [
                    'Body',
                    f.bodyMatches === null ? (
                      'not compared (the service’s copy is unknown)'
                    ) : f.bodyMatches ? (
                      <Badge key="b" tone="green" wrap>
                        byte-for-byte what the service sent
                      </Badge>
                    ) : (
                      <Badge key="b" tone="red" wrap>
                        differs from what the service sent
                      </Badge>
                    ),
                  ],
                  [
                    'Sent by',
                    webhook ? (
                      <Link key="w" href={`/webhooks/${encodeURIComponent(webhook.id)}`} className="break-all text-indigo-700 hover:underline">
                        {webhook.description || webhook.url}
                      </Link>
                    ) : (
                      'no webhook of this account sent it'
                    ),
                  ],
                ]}
              />
              <table className="w-full text-xs" data-testid="fingerprints">
                <thead className="text-left text-slate-500">
                  <tr>
                    <th className="py-1 pr-3 font-medium">Secret</th>
                    <th className="py-1 pr-3 font-medium">Fingerprint</th>
                    <th className="py-1 font-medium">Signed this request</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {[...(f.webhookSecret ? [f.webhookSecret] : []), ...f.receiverSecrets].map((s: TSecretCheck) => (
                    <tr key={s.label} data-testid="fingerprint-row" data-matches={s.matches}>
                      <td className="py-1 pr-3">{s.label}</td>
                      <td className="py-1 pr-3 font-mono">{s.fingerprint}…</td>
                      <td className="py-1">{s.matches ? <Badge tone="green">yes</Badge> : <Badge tone="gray">no</Badge>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {f.receiverSecrets.length === 0 ? <Callout tone="warning">The receiver holds no secret, so nothing is verified.</Callout> : null}
              {webhook && holdsWebhookSecret && receipt.verdict !== 'valid' ? (
                <p className="text-xs text-emerald-700" data-testid="holds-webhook-secret">
                  The receiver now holds the webhook’s secret ({webhookFingerprint}…): new deliveries verify with it. This request was checked, and failed, with
                  the secrets the receiver held when it arrived.
                </p>
              ) : null}
              {webhook && f.webhookSecret && !holdsWebhookSecret ? (
                <div className="space-y-1">
                  <p className="text-xs text-slate-600">The receiver does not hold the secret this webhook signs with.</p>
                  <AdoptSecretButton receiptId={receipt.id} />
                </div>
              ) : null}
            </div>
          )}
        </Card>
        <Card title="Request">
          <DescriptionList
            items={[
              ['Received', <Timestamp key="t" value={receipt.receivedAt} withMs />],
              [
                'Request',
                <span key="r" className="break-all font-mono text-xs">
                  {receipt.method} {receipt.path}
                  {receipt.query ? `?${receipt.query.replace(/^\?/, '')}` : ''}
                </span>,
              ],
              ['From', receipt.sourceIp || 'unknown'],
              ['Answered', <HttpCodeBadge key="a" code={receipt.responseStatus} />],
              ['Message id', receipt.messageId ?? '—'],
            ]}
          />
        </Card>
      </div>
      <div className="space-y-5">
        <Card title="Headers">
          <HeadersTable headers={receipt.headers} />
        </Card>
        <Card title={`Body (${receipt.bodySize} bytes)`}>
          {receipt.bodyGone ? (
            <p className="text-xs text-slate-600" data-testid="body-gone">
              {receipt.bodyGone.note}
              {receipt.bodyGone.sha256 ? <span className="block break-all font-mono">SHA-256 {receipt.bodyGone.sha256}</span> : null}
            </p>
          ) : receipt.oversize ? (
            <p className="text-xs text-amber-800">Over the size limit: only the metadata was stored.</p>
          ) : sentBody !== null && receipt.body ? (
            <SentVsReceived sent={sentBody} received={decoder.decode(receipt.body)} />
          ) : (
            <BodyViewer text={receipt.body ? decoder.decode(receipt.body) : ''} label="Body received" />
          )}
        </Card>
      </div>
      <Card title={`Forwards (${forwards.length})`}>
        <div className="space-y-4" data-testid="forwards">
          {operator ? (
            bodyKept ? (
              <ForwardForm receiptId={receipt.id} canResign={view.canResign} />
            ) : (
              <p className="text-xs text-slate-600">The body is no longer kept, so this receipt cannot be forwarded.</p>
            )
          ) : null}
          <ForwardList forwards={forwards} />
        </div>
      </Card>
    </div>
  );
}
