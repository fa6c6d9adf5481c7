// The header's search: any id support is handed (tracking id, grant id, message id, event id,
// webhook id), a donor's e-mail or full name, or inside payloads: path.to.field=value or "quoted text". A plain GET form: works before hydration and without JavaScript.
export function SearchBox({ className = '' }: { className?: string }) {
  return (
    <form action="/cases" method="get" role="search" className={`flex min-w-0 items-center ${className}`}>
      <input
        type="search"
        name="q"
        required
        maxLength={254}
        aria-label="Search"
        placeholder="Tracking id, msg_…, e-mail, name, data.amount=…"
        className="w-full min-w-0 rounded-md border border-white/10 bg-white/10 px-2.5 py-1 text-sm text-white placeholder:text-slate-400 focus:border-indigo-300 focus:bg-white/15 focus:outline-none"
      />
    </form>
  );
}
