import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

// What the browser downloads: every client component ('use client') and what it imports, followed
// through the repository's own modules (not through server actions, which the browser reaches by
// reference only), must not pull in a validation library — the server validates — nor a heavy
// chart library. Issue 41 measured zod at 33 KB sent on /alerts and recharts at 100–136 KB.

const ROOT = path.resolve(import.meta.dirname, '../..');
const BANNED = ['zod', 'recharts'];

function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith('@/') ? path.join(ROOT, spec.slice(2)) : spec.startsWith('.') ? path.resolve(path.dirname(from), spec) : null;
  if (!base) return null;
  for (const ext of ['', '.ts', '.tsx', '/index.ts', '/index.tsx']) {
    const p = base + ext;
    if (fs.existsSync(p) && fs.statSync(p).isFile()) return p;
  }
  return null;
}

const directive = (src: string, word: 'client' | 'server') => new RegExp(`^(//[^\\n]*\\n|\\s)*['"]use ${word}['"]`).test(src);
/** Value imports and re-exports (`import type` is erased at build). */
const imports = (src: string) => [...src.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]);

/** The chain of modules from `file` to a banned package, or null. */
function chainToBanned(file: string, seen: Set<string>): string[] | null {
  if (seen.has(file)) return null;
  seen.add(file);
  const src = fs.readFileSync(file, 'utf8');
  if (directive(src, 'server')) return null;
  for (const spec of imports(src)) {
    if (BANNED.some((b) => spec === b || spec.startsWith(`${b}/`))) return [path.relative(ROOT, file), spec];
    const next = resolve(file, spec);
    const rest = next ? chainToBanned(next, seen) : null;
    if (rest) return [path.relative(ROOT, file), ...rest];
  }
  return null;
}

function clientComponents(): string[] {
  return ['app', 'components', 'lib']
    .flatMap((dir) => fs.readdirSync(path.join(ROOT, dir), { recursive: true }).map((f) => path.join(ROOT, dir, String(f))))
    .filter((f) => /\.tsx?$/.test(f) && directive(fs.readFileSync(f, 'utf8'), 'client'));
}

test('the walk finds client components and follows their imports (it can fail)', () => {
  const files = clientComponents();
  assert.ok(files.length > 20, `${files.length} client components`);
  // A module that imports zod is found through a client component's import of it.
  assert.deepEqual(chainToBanned(path.join(ROOT, 'lib/console/alerts/rule-schemas.ts'), new Set()), ['lib/console/alerts/rule-schemas.ts', 'zod']);
});

test('no client component ships zod or recharts to the browser', () => {
  const found = clientComponents()
    .map((f) => chainToBanned(f, new Set()))
    .filter((c): c is string[] => c !== null)
    .map((c) => c.join(' → '));
  assert.deepEqual(found, []);
});
