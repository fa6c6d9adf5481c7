import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

// No import cycles in the app's code (app/, lib/, components/, scripts/): a cycle is modules that
// cannot be read, tested or moved apart. Every import counts, `import type` too (a type loop is the
// same tangle). What madge --circular finds, without its dependencies.

const root = path.resolve(import.meta.dirname, '../..');
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs'];
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'migrations') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) sourceFiles(full, out);
    else if (EXTENSIONS.includes(path.extname(name)) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith('@/') ? path.join(root, spec.slice(2)) : spec.startsWith('.') ? path.resolve(path.dirname(from), spec) : null;
  if (!base) return null;
  for (const candidate of [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Each cycle once, as the files on it (relative to the root). */
export function findCycles(files: string[]): string[][] {
  const graph = new Map(
    files.map((f) => [f, [...readFileSync(f, 'utf8').matchAll(IMPORT)].map((m) => resolve(f, m[1] ?? m[2] ?? m[3])).filter((t): t is string => !!t)]),
  );
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const t of graph.get(f) ?? []) {
      if (state.get(t) === 'open') cycles.push(stack.slice(stack.indexOf(t)).map((p) => path.relative(root, p)));
      else if (!state.has(t) && graph.has(t)) visit(t);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return cycles;
}

test('the app has no import cycle', () => {
  const files = ['app', 'lib', 'components', 'scripts'].flatMap((d) => sourceFiles(path.join(root, d)));
  assert.ok(files.length > 300, `read ${files.length} files`);
  assert.deepEqual(findCycles(files), []);
});

test('a cycle is found, type-only imports included', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  // The system's temp folder: tests/.tmp exists only once `npm test` has made it (a fresh clone's `npm run test:unit` has none).
  const dir = mkdtempSync(path.join(tmpdir(), 'gc-cycle-'));
  try {
    writeFileSync(path.join(dir, 'a.ts'), "import type { TB } from './b';\nexport type TA = TB;\n");
    writeFileSync(path.join(dir, 'b.ts'), "import { c } from './c';\nexport type TB = typeof c;\n");
    writeFileSync(path.join(dir, 'c.ts'), "export { type TA } from './a';\nexport const c = 1;\n");
    writeFileSync(path.join(dir, 'd.ts'), "import { c } from './c';\nexport const d = c;\n");
    const cycles = findCycles(sourceFiles(dir));
    assert.equal(cycles.length, 1);
    assert.deepEqual(cycles[0].map((p) => path.basename(p)).sort(), ['a.ts', 'b.ts', 'c.ts']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
