'use client';

import { useRef } from 'react';

// Picks the API environment; the parent passes a server action that stores it in the session.
export function EnvironmentSwitcher({
  current,
  options,
  action,
}: {
  current: string;
  options: { name: string; label: string }[];
  action: (formData: FormData) => Promise<void>;
}) {
  const form = useRef<HTMLFormElement>(null);
  return (
    <form ref={form} action={action} className="flex items-center">
      <label htmlFor="environment" className="sr-only">
        Environment
      </label>
      <select
        id="environment"
        name="environment"
        defaultValue={current}
        onChange={() => form.current?.requestSubmit()}
        className={`rounded-md border-0 py-1 pl-2 pr-7 text-xs font-semibold ring-1 ring-inset focus:ring-2 ${
          current === 'production' ? 'bg-rose-600 text-white ring-rose-400' : 'bg-amber-300 text-amber-950 ring-amber-400'
        }`}
      >
        {options.map((o) => (
          <option key={o.name} value={o.name}>
            {o.label}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="ml-1 text-xs text-white underline">
          Switch
        </button>
      </noscript>
    </form>
  );
}
