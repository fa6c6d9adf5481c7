import { toLocalInput } from '@/lib/format';
import { Input } from './form';

// A time field of a plain GET filter form: a datetime-local input read as UTC, as every time in
// the console is (lib/console/instant.ts reads it back), with its label above it.

export function UtcTimeField({ label, name, value }: { label: string; name: string; value?: string | Date }) {
  return (
    <label className="flex flex-col text-xs text-slate-600">
      {label}
      <Input type="datetime-local" name={name} defaultValue={toLocalInput(value)} className="mt-0.5 w-auto" />
    </label>
  );
}
