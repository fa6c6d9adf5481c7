import { RECON_COLUMNS } from '@/lib/console/reconciliation/reconciliation-columns';

// What each column of the reconciliation CSV means, on the page beside the download (the same list
// GET /api/reconciliation/columns answers and docs/GUIDE.md prints).

export function ColumnDictionary() {
  return (
    <details className="rounded-lg border border-slate-200 bg-surface text-sm" data-testid="recon-columns">
      <summary className="cursor-pointer px-4 py-3 font-medium text-slate-800">What each column of the CSV means</summary>
      <div className="space-y-2 border-t border-slate-100 px-4 py-3">
        <p className="text-xs text-slate-600">
          One row per grant × webhook, a header row first. Also as JSON:{' '}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- a JSON document, not a page */}
          <a href="/api/reconciliation/columns" className="font-medium text-indigo-700 hover:underline">
            /api/reconciliation/columns
          </a>
          .
        </p>
        <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[12rem_minmax(0,1fr)]">
          {RECON_COLUMNS.map(([name, meaning]) => (
            <div key={name} className="contents">
              <dt className="font-mono text-xs text-slate-800 max-sm:mt-2">{name}</dt>
              <dd className="text-xs text-slate-600">{meaning}</dd>
            </div>
          ))}
        </dl>
      </div>
    </details>
  );
}
