import Link from 'next/link';
import type { TWebhookListSearch } from '@/lib/console/webhooks/webhook-list';

// The webhooks list's filters as links (a filtered list is a URL; no script needed): tracked or not,
// and enabled or disabled. Changing a filter starts at the first page.

const TRACKED: [TWebhookListSearch['tracked'], string][] = [
  [undefined, 'All'],
  ['yes', 'Tracked'],
  ['no', 'Not tracked'],
];
const STATUS: [TWebhookListSearch['status'], string][] = [
  [undefined, 'Any status'],
  ['enabled', 'Enabled'],
  ['disabled', 'Disabled'],
];

export function webhookListHref(search: TWebhookListSearch): string {
  const qs = new URLSearchParams();
  if (search.tracked) qs.set('tracked', search.tracked);
  if (search.status) qs.set('status', search.status);
  if (search.pageToken) qs.set('pageToken', search.pageToken);
  const s = qs.toString();
  return s ? `/webhooks?${s}` : '/webhooks';
}

function Pills<K extends 'tracked' | 'status'>({
  label,
  search,
  name,
  choices,
}: {
  label: string;
  search: TWebhookListSearch;
  name: K;
  choices: [TWebhookListSearch[K], string][];
}) {
  return (
    <nav aria-label={label} className="inline-flex flex-wrap rounded-md shadow-sm ring-1 ring-inset ring-slate-300">
      {choices.map(([value, text]) => {
        const current = search[name] === value;
        return (
          <Link
            key={text}
            href={webhookListHref({ ...search, [name]: value, pageToken: undefined })}
            aria-current={current ? 'true' : undefined}
            className={`px-3 py-1.5 text-xs font-medium first:rounded-l-md last:rounded-r-md ${current ? 'bg-indigo-600 text-white' : 'bg-surface text-slate-700 hover:bg-slate-50'}`}
          >
            {text}
          </Link>
        );
      })}
    </nav>
  );
}

export function WebhookListFilters({ search }: { search: TWebhookListSearch }) {
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="webhook-filters">
      <Pills label="Tracked by this console" search={search} name="tracked" choices={TRACKED} />
      <Pills label="Status" search={search} name="status" choices={STATUS} />
    </div>
  );
}
