import type { ReactNode } from 'react';

/** The frame of the donor-facing Connect pages: a centered card with a sandbox footer. */
export function ConnectShell({ children }: { children: ReactNode }) {
  return (
    <main className="min-h-screen bg-gradient-to-b from-emerald-50 via-slate-50 to-slate-100 px-4 py-10 sm:py-16">
      <div className="mx-auto w-full max-w-xl">
        <div className="overflow-hidden rounded-2xl border border-slate-200 bg-surface shadow-xl shadow-slate-200/60">{children}</div>
        <p className="mt-6 text-center text-xs text-slate-500">
          Sandbox giving page · no money moves · powered by <span className="font-medium text-slate-600">Giving Connect</span>
        </p>
      </div>
    </main>
  );
}
