import { ConnectShell } from '@/components/connect/connect-shell';

/** No tracking id, or one that is not a grant of this Connect (or the Connect itself is gone). */
export default function ThanksNotFound() {
  return (
    <ConnectShell>
      <div className="px-6 py-12 text-center sm:px-8">
        <p className="text-sm font-semibold uppercase tracking-wider text-slate-500">404</p>
        <h1 className="mt-2 text-2xl font-semibold text-slate-900">This confirmation was not found</h1>
        <p className="mt-2 text-sm text-slate-600">
          The link may be incomplete or mistyped: it should end with the tracking id of your gift, such as ?t=GC-7KQ2M9. Check the link, or contact the
          nonprofit with your tracking id.
        </p>
      </div>
    </ConnectShell>
  );
}
