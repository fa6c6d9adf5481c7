import fs from 'node:fs/promises';
import path from 'node:path';

// The API reference page (/reference): Scalar's API reference, its prebuilt browser bundle served
// from this app (no CDN), reading /openapi.json. Everything that would reach Scalar's servers is
// off: its web fonts (system fonts instead), its hosted API client, its AI agent, telemetry.

const BUNDLE = path.join(process.cwd(), 'node_modules/@scalar/api-reference/dist/browser/standalone.js');

const CONFIGURATION = {
  url: '/openapi.json',
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  defaultOpenAllTags: false,
  theme: 'default',
  // Its theme follows the reader's system; these raise its muted text and method colours to WCAG AA
  // in both (what is left that no setting reaches is listed in tests/e2e/axe.ts, REFERENCE_EXCUSED).
  customCss: [
    '.light-mode{--scalar-color-2:#5c5c5c;--scalar-color-3:#666;--scalar-color-green:#067a52;--scalar-color-red:#c8000a;--scalar-color-yellow:#8a6a00;--scalar-color-blue:#006bb3;--scalar-color-orange:#b33f00;--scalar-color-query:#006b70;--scalar-sidebar-color-2:#5c5c5c;--scalar-sidebar-search-color:#666}',
    '.dark-mode{--scalar-color-2:#b8b8b8;--scalar-color-3:#a6a6a6;--scalar-color-red:#ff6b66;--scalar-color-green:#2fd37a;--scalar-sidebar-color-2:#b8b8b8;--scalar-sidebar-search-color:#a6a6a6}',
  ].join(''),
  metaData: { title: 'Giving Connect API reference' },
};

export function referencePageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Giving Connect API reference</title>
<link rel="icon" href="/icon.svg">
<style>body{margin:0;font-family:ui-sans-serif,system-ui,sans-serif}:root{--scalar-font:ui-sans-serif,system-ui,sans-serif;--scalar-font-code:ui-monospace,SFMono-Regular,Menlo,monospace}</style>
</head>
<body>
<noscript>The reference needs JavaScript; the document itself is at <a href="/openapi.json">/openapi.json</a>.</noscript>
<script id="api-reference" data-configuration='${JSON.stringify(CONFIGURATION)}'></script>
<script src="/reference/scalar.js"></script>
</body>
</html>`;
}

// The page's Content-Security-Policy refuses eval (lib/http/safety-headers.ts). The zod inside Scalar
// probes for it (`Function('')`) to compile its checks, and the browser reports each refused probe:
// zod's own setting says not to try, before the bundle runs.
const NO_EVAL = 'globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };\n';

let bundle: Promise<Buffer> | undefined;
export function referenceBundle(): Promise<Buffer> {
  bundle ??= fs.readFile(BUNDLE).then((code) => Buffer.concat([Buffer.from(NO_EVAL), code]));
  return bundle;
}
