import fs from 'node:fs';

// Small numeric helpers for the bench: percentiles over a sorted copy, a process's RSS from /proc.

/** The p-th percentile (0–100) by nearest rank; NaN for no samples. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export const median = (samples: number[]) => percentile(samples, 50);

/** Resident set size of a process in MiB (VmRSS in /proc/<pid>/status); null where unreadable. */
export function rssMiB(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export const ratio = (figure: number, baseline: number) => (baseline > 0 && Number.isFinite(figure) ? figure / baseline : NaN);
