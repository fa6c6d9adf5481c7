// The header's search: any id support is handed (tracking id, grant id, message id, event id,
// webhook id), a donor's e-mail or full name, or inside payloads: path.to.field=value or "quoted text". A plain GET form: works before hydration and without JavaScript.
import { SEARCH_INPUT_ID } from './search-input-id';
import { SlashToSearch } from './slash-to-search';

export function SearchBox({ className = '' }: { className?: string }) {
  return (
    <form action="/cases" method="get" role="search" className={`relative flex min-w-0 items-center ${className}`}>
      <SlashToSearch />
      <input
        id={SEARCH_INPUT_ID}
        aria-keyshortcuts="/"
        type="search"
        name="q"
        required
        maxLength={254}
        aria-label="Search"
        // Short enough to show whole in the header at 1280 px (tests/e2e/staff-pages.spec.ts); the title says the rest.
        placeholder="Tracking id, msg_…, e-mail, name"
        title="A tracking id, grant, message, event or webhook id, a donor's e-mail or name, or inside payloads: data.amount=2500 or a quoted phrase"
        className="peer w-full min-w-0 rounded-md border border-white/10 bg-white/10 py-1 pl-2.5 pr-2.5 text-sm sm:pr-7 text-white placeholder:text-slate-400 focus:border-indigo-300 focus:bg-white/15 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-300"
      />
      <kbd
        aria-hidden
        className="pointer-events-none absolute right-1.5 hidden rounded border border-white/20 px-1 font-mono text-[11px] leading-4 text-slate-400 peer-focus:hidden sm:block"
        title="Press / to search"
      >
        /
      </kbd>
    </form>
  );
}
