import { processSingleton } from '@/lib/process-singleton';

// The loops a process runs (the delivery worker) beat here on every turn; readiness
// (check-readiness.ts) names any that has been silent longer than it promised, which is how a
// wedged loop in a process that otherwise answers shows up in a health check.

type TBeat = { last: number; maxSilenceMs: number };

const beats = processSingleton('heartbeats', () => new Map<string, TBeat>());

/** Registers `name`, which promises to beat at least every `maxSilenceMs`; returns its beat. */
export function heartbeat(name: string, maxSilenceMs: number): () => void {
  const beat: TBeat = { last: Date.now(), maxSilenceMs };
  beats.set(name, beat);
  return () => {
    beat.last = Date.now();
  };
}

/** Forgets `name` (its loop stopped on purpose). */
export function dropHeartbeat(name: string): void {
  beats.delete(name);
}

/** Every registered loop, with how long ago it last beat and whether that is within its promise. */
export function heartbeatStates(now = Date.now()): { name: string; silentMs: number; ok: boolean }[] {
  return [...beats].map(([name, b]) => ({ name, silentMs: now - b.last, ok: now - b.last <= b.maxSilenceMs }));
}
