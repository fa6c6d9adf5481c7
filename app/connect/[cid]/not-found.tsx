import { ConnectShell } from '@/components/connect/connect-shell';

/** Unknown or inactive Connect (or a tracking id that is not one of its grants). */
export default function ConnectNotFound() {
  return (
    <ConnectShell>
      <div className="px-6 py-12 text-center sm:px-8">
        <p className="text-sm font-semibold uppercase tracking-wider text-slate-500">404</p>
        <h1 className="mt-2 text-2xl font-semibold text-slate-900">This giving page is not available</h1>
        <p className="mt-2 text-sm text-slate-600">
          The link may be mistyped, or the nonprofit has turned this page off. Check the link you were given, or contact the nonprofit.
        </p>
      </div>
    </ConnectShell>
  );
}
