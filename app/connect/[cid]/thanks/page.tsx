// Donor Connect flow: GET /connect/{cid}/thanks?t=<trackingId> — the confirmation of a grant of this Connect (in full only in the browser that gave).
import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ConnectShell } from '@/components/connect/connect-shell';
import { THANKS_COOKIE, mayShowThanks } from '@/lib/service/connect-page/thanks-cookie';
import { findActiveConnect } from '@/lib/service/connects/get-connect';
import { findGrantByTrackingId } from '@/lib/service/grants/find-grant';
import { pageQuery, type TPageProps } from '@/lib/http/page-props';
import { z } from 'zod';
import { formatMoney } from '@/lib/money';

type TProps = TPageProps<{ cid: string }>;

function CheckMark() {
  return (
    <div className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-emerald-100 text-emerald-600">
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.5} className="h-7 w-7" aria-hidden="true">
        <path strokeLinecap="round" strokeLinejoin="round" d="M5 13l4 4L19 7" />
      </svg>
    </div>
  );
}

/** For anyone holding the link but not the browser that gave: nothing of the donor or the gift. */
function NeutralThanks({ cid, nonprofitName }: { cid: string; nonprofitName: string }) {
  return (
    <ConnectShell>
      <div className="px-6 py-10 text-center sm:px-8">
        <CheckMark />
        <h1 className="mt-4 text-2xl font-semibold text-slate-900">Thank you</h1>
        <p className="mt-2 text-sm text-slate-600" data-testid="thanks-neutral">
          This confirmation is shown only in the browser that made the gift, for an hour after giving. Keep the tracking id from the link: {nonprofitName} and
          your fund sponsor use it to find the grant.
        </p>
        <Link href={`/connect/${encodeURIComponent(cid)}`} className="mt-6 inline-block text-sm font-medium text-emerald-700 hover:text-emerald-800">
          Make a grant →
        </Link>
      </div>
    </ConnectShell>
  );
}

export const metadata: Metadata = { title: 'Thank you', robots: { index: false } };
const ZThanksSearch = z.object({ t: z.string().optional().catch(undefined) });

export default async function ThanksPage({ params, searchParams }: TProps) {
  const { cid } = await params;
  const { t } = pageQuery(await searchParams, ZThanksSearch);
  const found = await findActiveConnect(cid);
  const grant = found && t ? await findGrantByTrackingId(cid, t) : null;
  if (!found || !grant) notFound();
  if (!mayShowThanks((await cookies()).get(THANKS_COOKIE)?.value, found.connect, grant.trackingId)) {
    return <NeutralThanks cid={cid} nonprofitName={found.nonprofitName} />;
  }
  const total = grant.coveredFees ? grant.amount + grant.feeAmount : grant.amount;

  return (
    <ConnectShell>
      <div className="px-6 py-10 text-center sm:px-8">
        <CheckMark />
        <h1 className="mt-4 text-2xl font-semibold text-slate-900">Thank you, {grant.firstName}!</h1>
        <p className="mt-2 text-sm text-slate-600">
          Your grant recommendation of <span className="font-semibold text-slate-900">{formatMoney(grant.amount)}</span> to{' '}
          <span className="font-semibold text-slate-900">{found.nonprofitName}</span> has been sent to {grant.fundName}.
        </p>
        <div className="mx-auto mt-6 max-w-xs rounded-xl border border-dashed border-emerald-300 bg-emerald-50 px-4 py-3">
          <p className="text-xs font-medium uppercase tracking-wider text-emerald-700">Tracking id</p>
          <p className="mt-1 font-mono text-2xl font-semibold tracking-widest text-emerald-900" data-testid="tracking-id">
            {grant.trackingId}
          </p>
        </div>
        <dl className="mx-auto mt-6 max-w-sm divide-y divide-slate-100 text-left text-sm">
          <div className="flex justify-between py-2">
            <dt className="text-slate-500">Grant</dt>
            <dd className="font-medium text-slate-900">{formatMoney(grant.amount)}</dd>
          </div>
          <div className="flex justify-between py-2">
            <dt className="text-slate-500">Fees{grant.coveredFees ? ' (covered by you)' : ''}</dt>
            <dd className="font-medium text-slate-900">{formatMoney(grant.feeAmount)}</dd>
          </div>
          <div className="flex justify-between py-2">
            <dt className="text-slate-500">{grant.coveredFees ? 'Total from your fund' : `${found.nonprofitName} receives`}</dt>
            <dd className="font-medium text-slate-900">{formatMoney(grant.coveredFees ? total : grant.amount - grant.feeAmount)}</dd>
          </div>
          <div className="flex justify-between py-2">
            <dt className="text-slate-500">Status</dt>
            <dd className="font-medium text-slate-900">{grant.status}</dd>
          </div>
        </dl>
        <p className="mt-6 text-xs text-slate-500">Keep the tracking id: {found.nonprofitName} and your fund sponsor use it to find this grant.</p>
        <Link href={`/connect/${encodeURIComponent(cid)}`} className="mt-6 inline-block text-sm font-medium text-emerald-700 hover:text-emerald-800">
          Make another grant →
        </Link>
      </div>
    </ConnectShell>
  );
}
