// The contract between the halves, written down: `npm run openapi` writes the service's OpenAPI
// document (what /openapi.json serves, from the routes' zod and op() declarations) to
// openapi/connect-api.json, and the console's types made from it (openapi-typescript) to
// openapi/connect-api.d.ts. Both are committed; tests/unit/openapi-document.test.ts fails while
// either differs from what this writes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from '@/lib/service/openapi-document';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The deployment the committed document names (each app serves its own PUBLIC_URL and audience at /openapi.json). */
export const CONTRACT_PUBLIC_URL = 'http://localhost:3000';
export const CONTRACT_AUDIENCE = 'https://api.giving-connect.test';

export const CONTRACT_FILES = { document: 'openapi/connect-api.json', types: 'openapi/connect-api.d.ts' } as const;

/** The two files' contents as the service generates them now. */
export async function contractFiles(): Promise<Record<keyof typeof CONTRACT_FILES, string>> {
  const doc = JSON.parse(JSON.stringify(openApiDocument(CONTRACT_PUBLIC_URL, CONTRACT_AUDIENCE)));
  const types = astToString(await openapiTS(doc, { alphabetize: true, defaultNonNullable: false }));
  return { document: `${JSON.stringify(doc, null, 2)}\n`, types };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await contractFiles();
  for (const key of Object.keys(CONTRACT_FILES) as (keyof typeof CONTRACT_FILES)[]) {
    writeFileSync(path.join(ROOT, CONTRACT_FILES[key]), files[key]);
    console.log(`wrote ${CONTRACT_FILES[key]}`);
  }
}
