import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// What the bench prints: a table per section as it goes, then one summary of every figure beside
// its baseline, ratio and target, also written as JSON to tests/.tmp/bench-<timestamp>.json.

/** A target on the figure itself (`value`) or on its ratio to the baseline (`ratio`). */
export type TTarget = { on: 'value' | 'ratio'; op: '>=' | '<='; limit: number; label: string };

export type TFigure = {
  store: string;
  figure: string;
  unit: string;
  value: number;
  baseline: number | null;
  baselineName: string | null;
  target: TTarget | null;
  /** Why no pass/fail is given although there is a target (e.g. too few samples for it). */
  note?: string;
};

export type TVerdict = 'pass' | 'FAIL' | '—';

export const atLeast = (limit: number, on: TTarget['on'] = 'ratio', label = `≥ ${on === 'ratio' ? `${limit.toFixed(1)}×` : limit}`): TTarget => ({
  on,
  op: '>=',
  limit,
  label,
});
export const atMost = (limit: number, on: TTarget['on'] = 'ratio', label = `≤ ${on === 'ratio' ? `${limit.toFixed(1)}×` : limit}`): TTarget => ({
  on,
  op: '<=',
  limit,
  label,
});

export function ratioOf(f: TFigure): number | null {
  return f.baseline && Number.isFinite(f.value) ? f.value / f.baseline : null;
}

export function verdictOf(f: TFigure): TVerdict {
  if (!f.target || f.note) return '—';
  const x = f.target.on === 'ratio' ? ratioOf(f) : f.value;
  if (x === null || !Number.isFinite(x)) return 'FAIL';
  return (f.target.op === '>=' ? x >= f.target.limit : x <= f.target.limit) ? 'pass' : 'FAIL';
}

export function fmt(n: number | null | undefined, digits = 0): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const fmtRatio = (r: number | null) => (r === null || !Number.isFinite(r) ? '—' : `${r.toFixed(2)}×`);

/** Columns padded to their widest cell; numbers (and —) right-aligned. */
export function printTable(title: string, header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_, i) => rows.every((r) => typeof r[i] === 'number' || /^[\d,.\-—×%+ ]*(ms|\/s|MiB|s)?$/.test(String(r[i] ?? ''))));
  const line = (r: string[]) =>
    '  ' +
    r
      .map((c, i) => (numeric[i] && i > 0 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(`\n${title}`);
  console.log(line(cells[0]));
  console.log('  ' + widths.map((w) => '─'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r));
}

export function printSummary(figures: TFigure[]): void {
  printTable(
    'Summary',
    ['store', 'figure', 'value', 'baseline', 'ratio', 'target', 'result'],
    figures.map((f) => [
      f.store,
      f.figure,
      `${fmt(f.value, f.value < 10 ? 2 : 0)} ${f.unit}`,
      f.baseline === null ? '—' : `${fmt(f.baseline, f.baseline < 10 ? 2 : 0)} ${f.unit}`,
      fmtRatio(ratioOf(f)),
      f.target?.label ?? '',
      f.note ? `— (${f.note})` : verdictOf(f),
    ]),
  );
}

export type TRunInfo = { startedAt: string; seconds: number; knobs: Record<string, unknown>; rss: Record<string, unknown>[]; notes: string[] };

/** Writes the summary as JSON next to the test scratch files (gitignored); returns the path. */
export function writeJson(root: string, figures: TFigure[], run: TRunInfo): string {
  const dir = path.join(root, 'tests/.tmp');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bench-${run.startedAt.replace(/[:.]/g, '-')}.json`);
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? '',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
  const rows = figures.map((f) => ({ ...f, ratio: ratioOf(f), result: verdictOf(f) }));
  fs.writeFileSync(file, `${JSON.stringify({ ...run, machine, figures: rows }, null, 2)}\n`);
  return file;
}
