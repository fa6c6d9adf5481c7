/** @type {import('next').NextConfig} */
const nextConfig = {
  // Several builds can live side by side (tests, parallel work): NEXT_DIST_DIR picks the folder.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // PGlite loads its WASM and data files from its own package folder; pg has optional native bits;
  // prom-client is loaded once by Node, not once per bundle (its metrics live on globalThis anyway).
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'prom-client'],
  poweredByHeader: false,
  // A sender posting to /ingest/{slug}/ (or a client calling /v1/webhooks/) is served, not redirected:
  // webhook senders do not follow redirects.
  skipTrailingSlashRedirect: true,
  // forbidden() from next/navigation: a page or server action above the staff member's role answers 403 (app/forbidden.tsx).
  // CI_BUILD=1 (.ci/run): a one-off build in a fresh clone that `tsc --noEmit` has just checked in
  // full, so the build's own TypeScript pass (the same check again) and its filesystem cache (for a
  // next build that never comes) are skipped. Every other build type-checks and caches as usual.
  ...(process.env.CI_BUILD === '1' ? { typescript: { ignoreBuildErrors: true } } : {}),
  // preloadEntriesOnStart: false — a route's code loads when it is first asked for, not every route's
  // at start: a start costs ~0.5 CPU s less (a fifth of it), and a process that serves only the API,
  // the receiver or a few pages never loads the rest; the first request to a route pays ~50 ms once.
  experimental: { authInterrupts: true, preloadEntriesOnStart: false, ...(process.env.CI_BUILD === '1' ? { turbopackFileSystemCacheForBuild: false } : {}) },
};
export default nextConfig;
