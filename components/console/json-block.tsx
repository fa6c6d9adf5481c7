// Pretty-printed JSON (or raw text when it is not JSON), scrollable.

export function prettyBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function CodeBlock({ children, maxHeight = 'max-h-96', label, wrap }: { children: string; maxHeight?: string; label?: string; wrap?: boolean }) {
  return (
    <pre aria-label={label} className={`${maxHeight} ${wrap ? 'whitespace-pre-wrap break-all' : ''} overflow-auto rounded-md border border-slate-200 bg-slate-950 p-3 font-mono text-xs leading-relaxed text-slate-100`}>
      {children || <span className="text-slate-500">(empty)</span>}
    </pre>
  );
}

export function JsonBlock({ value, label }: { value: unknown; label?: string }) {
  return <CodeBlock label={label}>{typeof value === 'string' ? prettyBody(value) : JSON.stringify(value, null, 2)}</CodeBlock>;
}

/** A request's headers as stored, name beside value, in a scrolling box. */
export function HeadersTable({ headers }: { headers: [string, string][] }) {
  return (
    <div className="max-h-64 overflow-auto rounded-md border border-slate-200 bg-white">
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
