'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import { fetchJson, FetchJsonError } from '@/components/console/fetch-json';
import { buttonClass } from './button-class';
import { Callout } from './callout';
import { PageHeader } from './page-header';

// The console's 404 body: what was not found (read from the address, so it is right after a
// client-side navigation too), why that usually happens, and where to go on. For the API's objects
// it asks the console's JSON route once more, to show the API's answer and the request id to quote.

type TMissing = {
  title: string;
  id: string;
  crumbs: { href: string; label: string }[];
  what: string;
  hint: string;
  /** The console route that answers the API's 404 for it (problem+json with the upstream request id). */
  probe?: string;
  /** Where to go on: the first is the primary action. */
  next: { href: string; label: string }[];
};

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};
const enc = encodeURIComponent;

function missingAt(pathname: string): TMissing {
  const [section, rawId, sub, rawSubId] = pathname.split('/').filter(Boolean);
  const id = rawId ? decode(rawId) : '';
  if (section === 'webhooks' && id && sub === 'messages' && rawSubId) {
    const messageId = decode(rawSubId);
    return {
      title: 'No such message',
      id: messageId,
      crumbs: [
        { href: '/webhooks', label: 'Webhooks' },
        { href: `/webhooks/${enc(id)}`, label: id },
      ],
      what: `The API has no message ${messageId} for webhook ${id}.`,
      hint: 'The message may belong to another webhook, or the id may be cut short. Searching for it finds it at every webhook of this account.',
      probe: `/api/webhooks/${enc(id)}/messages/${enc(messageId)}`,
      next: [
        { href: `/cases/${enc(messageId)}`, label: 'Search for this message' },
        { href: `/webhooks/${enc(id)}`, label: 'Back to the timeline' },
      ],
    };
  }
  if (section === 'webhooks' && id) {
    return {
      title: 'Webhook not found',
      id,
      crumbs: [{ href: '/webhooks', label: 'Webhooks' }],
      what: `The API of this environment has no webhook ${id} for this account.`,
      hint: "Check the id and the environment (top right). Webhooks of other accounts are invisible to this console's credentials.",
      probe: `/api/webhooks/${enc(id)}/timeline?pageLimit=1`,
      next: [
        { href: '/webhooks', label: 'Back to webhooks' },
        { href: `/cases/${enc(id)}`, label: 'Search for this id' },
      ],
    };
  }
  if (section === 'receivers' && id) {
    return {
      title: 'Receiver not found',
      id,
      crumbs: [{ href: '/receivers', label: 'Receivers' }],
      what: `This console has no receiver ${id}.`,
      hint: 'It may have been removed, or the link names a receiver of another console.',
      next: [{ href: '/receivers', label: 'All receivers' }],
    };
  }
  if (section === 'receipts' && id) {
    return {
      title: 'Receipt not found',
      id,
      crumbs: [{ href: '/receivers', label: 'Receivers' }],
      what: `This console stored no receipt #${id}.`,
      hint: "Receipts are numbered per console; look it up in its receiver's log instead.",
      next: [{ href: '/receivers', label: 'All receivers' }],
    };
  }
  return {
    title: 'Not found',
    id: '',
    crumbs: [],
    what: 'Nothing lives at this address in the console.',
    hint: 'Check the link, or search for the id you were given.',
    next: [
      { href: '/webhooks', label: 'Webhooks' },
      { href: '/receivers', label: 'Receivers' },
    ],
  };
}

export function NotFoundPanel() {
  const pathname = usePathname();
  const m = missingAt(pathname);
  return (
    <div className="space-y-4" data-testid="not-found">
      <PageHeader
        eyebrow={
          m.crumbs.length ? (
            <span className="break-all">
              {m.crumbs.map((c, i) => (
                <span key={c.href}>
                  {i ? ' / ' : ''}
                  <Link href={c.href} className={`hover:underline ${i ? 'font-mono' : ''}`}>
                    {c.label}
                  </Link>
                </span>
              ))}
              {m.id ? <span className="font-mono"> / {m.id}</span> : null}
            </span>
          ) : (
            '404'
          )
        }
        title={m.title}
      />
      <Callout tone="warning" title={<span className="break-words">{m.what}</span>}>
        {m.hint}
      </Callout>
      {m.probe ? <ApiAnswer probe={m.probe} /> : null}
      <div className="flex flex-wrap gap-2">
        {m.next.map((n, i) => (
          <Link key={n.href} href={n.href} className={buttonClass(i === 0 ? 'primary' : 'secondary')}>
            {n.label}
          </Link>
        ))}
      </div>
    </div>
  );
}

/** The API's own answer for the missing object, with its request id. */
function ApiAnswer({ probe }: { probe: string }) {
  const { error, isPending } = useQuery({ queryKey: ['not-found', probe], queryFn: () => fetchJson<unknown>(probe), retry: false, staleTime: Infinity });
  if (isPending) return <p className="text-xs text-slate-500">Asking the API once more for its request id…</p>;
  if (!(error instanceof FetchJsonError)) return null;
  return (
    <p className="text-xs text-slate-500" data-testid="api-answer">
      The API answered {error.status}: {error.message}
      {error.requestId ? (
        <>
          {' '}
          · Request id <span className="select-all break-all font-mono">{error.requestId}</span>
        </>
      ) : null}
    </p>
  );
}
