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

let bundle: Promise<Buffer> | undefined;
export function referenceBundle(): Promise<Buffer> {
  bundle ??= fs.readFile(BUNDLE);
  return bundle;
}
