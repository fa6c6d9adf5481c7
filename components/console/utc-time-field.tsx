import type { ComponentProps } from 'react';
import { toUtcInput, UTC_INPUT_FORMAT } from '@/lib/console/format';
import { Input } from './form';

// The console's time fields: a text input in one fixed format, UTC to the minute (`2026-11-29 03:26`,
// its placeholder says so), never a datetime-local input, which shows the browser's locale format
// ("11/29/2026, 03:26 AM") under a label that says UTC. lib/console/instant.ts reads the value back
// (a T in place of the space, or seconds, are taken too); lib/format.ts's toUtcInput / fromUtcInput.

/** The props of a UTC time input. */
export const UTC_INPUT_PROPS = {
  type: 'text',
  inputMode: 'numeric',
  placeholder: UTC_INPUT_FORMAT,
  pattern: '\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}(:\\d{2})?',
  title: `UTC, as ${UTC_INPUT_FORMAT}`,
  autoComplete: 'off',
  spellCheck: false,
  size: 16,
} satisfies ComponentProps<typeof Input>;

/** A time field of a plain GET filter form, with its label above it. */
export function UtcTimeField({ label, name, value }: { label: string; name: string; value?: string | Date }) {
  return (
    <label className="flex flex-col text-xs text-slate-600">
      {label}
      <Input {...UTC_INPUT_PROPS} name={name} defaultValue={toUtcInput(value)} className="mt-0.5 w-auto font-mono" />
    </label>
  );
}
