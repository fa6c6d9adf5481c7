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
  experimental: { authInterrupts: true },
};
export default nextConfig;
