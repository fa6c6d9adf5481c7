/** A request's headers as stored, name beside value, in a scrolling box. */
export function HeadersTable({ headers, label = 'Headers' }: { headers: [string, string][]; label?: string }) {
  // A scrolling box is a Tab stop, so the keyboard can scroll it too.
  return (
    <div role="region" aria-label={label} tabIndex={0} className="max-h-64 overflow-auto rounded-md border border-slate-200 bg-surface">
      <table className="min-w-full text-xs">
        <tbody className="divide-y divide-slate-100">
          {headers.map(([k, v], i) => (
            <tr key={i}>
              <td className="whitespace-nowrap px-2 py-1 font-mono text-slate-500">{k}</td>
              <td className="break-all px-2 py-1 font-mono text-slate-800">{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
