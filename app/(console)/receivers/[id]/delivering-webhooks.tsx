import Link from 'next/link';
import { EnabledBadge } from '@/components/console/badge';
import { Card } from '@/components/console/card';
import type { TErrorInfo } from '@/app/(console)/_lib/errors';
import type { TSecretMismatch } from '@/lib/console/receivers/secret-mismatches';
import type { TDeliveringWebhook } from '@/lib/console/receivers/find-delivering-webhooks';

// The webhooks that send to this receiver, each linked to its timeline; one that signs with a secret
// the receiver does not hold says so (by fingerprints).

export function DeliveringWebhooks({
  webhooks,
  listError,
  mismatches = [],
}: {
  webhooks: TDeliveringWebhook[];
  listError: TErrorInfo | null;
  mismatches?: TSecretMismatch[];
}) {
  const mismatchOf = new Map(mismatches.map((m) => [m.webhookId, m]));
  return (
    <Card title={`Webhooks delivering here (${webhooks.length})`}>
      {webhooks.length === 0 ? (
        <p className="text-sm text-slate-500">None of this environment&apos;s webhooks points at this receiver yet.</p>
      ) : (
        <ul className="space-y-2 text-sm" data-testid="delivering-webhooks">
          {webhooks.map((w) => (
            <li key={w.id} className="min-w-0">
              <div className="flex flex-wrap items-center gap-2">
                <Link href={`/webhooks/${encodeURIComponent(w.id)}`} className="min-w-0 break-all font-medium text-indigo-700 hover:underline">
                  {w.description || w.id}
                </Link>
                {w.disabled !== null ? <EnabledBadge disabled={w.disabled} /> : null}
              </div>
              {w.description ? <p className="break-all font-mono text-xs text-slate-500">{w.id}</p> : null}
              <MismatchLine mismatch={mismatchOf.get(w.id)} />
              {w.movedAway ? (
                <p className="break-all text-xs text-amber-800">
                  created for this receiver, but its URL is now <span className="font-mono">{w.url}</span>
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {listError ? (
        <p className="mt-2 text-xs text-amber-800">
          The API&apos;s webhook list could not be read ({listError.message}); only the webhooks this console tracks are shown.
        </p>
      ) : null}
    </Card>
  );
}

function MismatchLine({ mismatch: m }: { mismatch?: TSecretMismatch }) {
  if (!m) return null;
  return (
    <p className="break-words text-xs text-amber-800" data-testid="secret-mismatch">
      signs with a secret this receiver does not hold (fingerprint {m.webhookFingerprint}… vs {m.receiverFingerprints.map((f) => `${f}…`).join(' and ')}): its
      deliveries here fail verification
    </p>
  );
}
