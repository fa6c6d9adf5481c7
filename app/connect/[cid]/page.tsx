// Donor Connect flow: GET /connect/{cid} — the public giving page of one Connect.
import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { ConnectShell } from '@/components/connect/connect-shell';
import { GiveForm } from '@/components/connect/give-form';
import { GIVE_FORM_COOKIE, decodeFormValues, isGiveFormError, newFormToken } from '@/lib/service/connect-page/give-form';
import { findActiveConnect } from '@/lib/service/connects/get-connect';
import { pageQuery, type TPageProps } from '@/lib/http/page-props';
import { z } from 'zod';

type TProps = TPageProps<{ cid: string }>;

const connectOf = cache(findActiveConnect);
const ZConnectSearch = z.object({ error: z.string().optional().catch(undefined) });

export async function generateMetadata({ params }: TProps): Promise<Metadata> {
  const found = await connectOf((await params).cid);
  return { title: found ? `Give to ${found.nonprofitName}` : 'Giving page not found', robots: { index: false } };
}

export default async function ConnectPage({ params, searchParams }: TProps) {
  const { cid } = await params;
  const found = await connectOf(cid);
  if (!found) notFound();
  const { error } = pageQuery(await searchParams, ZConnectSearch);
  const errors = (error?.split(',') ?? []).filter(isGiveFormError);
  const values = errors.length ? decodeFormValues((await cookies()).get(GIVE_FORM_COOKIE)?.value) : null;

  return (
    <ConnectShell>
      <header data-surface="dark" className="border-b border-slate-100 bg-emerald-700 px-6 py-6 text-white sm:px-8">
        <p className="text-xs font-semibold uppercase tracking-wider text-emerald-50">Give from your donor-advised fund</p>
        <h1 className="mt-1 text-2xl font-semibold leading-tight">{found.nonprofitName}</h1>
        {found.connect.name !== found.nonprofitName ? <p className="mt-1 text-sm text-emerald-50">{found.connect.name}</p> : null}
      </header>
      <GiveForm cid={cid} nonprofitName={found.nonprofitName} formToken={newFormToken()} errors={errors} values={values} />
    </ConnectShell>
  );
}
