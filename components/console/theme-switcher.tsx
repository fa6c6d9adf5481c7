'use client';

import { useRef } from 'react';

// The console's theme (system / light / dark), remembered for the staff member. The choice shows at
// once (the class of <html>, app/theme.css) while the form stores it; the next page comes from the
// server already in it. Without JavaScript the Save button submits the same form.

type TTheme = 'system' | 'light' | 'dark';
// "Auto" (short for the phone's header): the system's light or dark setting.
const LABELS: Record<TTheme, string> = { system: 'Auto', light: 'Light', dark: 'Dark' };

function apply(theme: TTheme) {
  const root = document.documentElement.classList;
  root.remove('light', 'dark');
  if (theme !== 'system') root.add(theme);
}

export function ThemeSwitcher({ current, action }: { current: TTheme; action: (formData: FormData) => Promise<void> }) {
  const form = useRef<HTMLFormElement>(null);
  return (
    <form ref={form} action={action} className="flex items-center" data-testid="theme-switcher">
      <label htmlFor="theme" className="sr-only">
        Theme
      </label>
      <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false" className="mr-1 hidden size-3.5 text-slate-400 sm:block">
        <circle cx="8" cy="8" r="6.25" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path d="M8 1.75a6.25 6.25 0 0 1 0 12.5z" fill="currentColor" />
      </svg>
      <select
        id="theme"
        name="theme"
        defaultValue={current}
        title="Theme: Auto follows your device's light or dark setting"
        onChange={(e) => {
          apply(e.currentTarget.value as TTheme);
          form.current?.requestSubmit();
        }}
        className="min-h-6 rounded-md border-0 bg-slate-900 py-0.5 pl-1.5 pr-6 text-xs font-medium text-slate-200 ring-1 ring-inset ring-white/20 hover:ring-white/40 focus:ring-2 focus:ring-indigo-300"
      >
        {(Object.keys(LABELS) as TTheme[]).map((t) => (
          <option key={t} value={t}>
            {LABELS[t]}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="ml-1 text-xs text-white underline">
          Save
        </button>
      </noscript>
    </form>
  );
}
