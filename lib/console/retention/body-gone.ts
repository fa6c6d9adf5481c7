import { formatDuration } from '@/lib/duration';

// What a view says where a body was: "body purged on 2026-11-26 (retention 30d)", or "body erased
// on 2026-11-26 (donor erasure)" — never the one for the other: an erasure is no retention. The date
// is the day (UTC) it went; the retention is today's setting.

export type TBodyGone = { kind: 'purged' | 'erased'; at: string; sha256: string | null; note: string };

const day = (at: Date | string) => {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? String(at).slice(0, 10) : d.toISOString().slice(0, 10);
};

export function purgedNote(at: Date | string, retentionMs: number, what = 'body'): string {
  return `${what} purged on ${day(at)} (retention ${formatDuration(retentionMs)})`;
}

export function erasedNote(at: Date | string, what = 'body'): string {
  return `${what} erased on ${day(at)} (donor erasure)`;
}

/** Why a delivery's retries stopped early (EXT `retriesStopped`), as the timeline, the case and Problems say it. */
export function retriesStoppedNote(stopped: { reason: string; at: string }): string {
  if (stopped.reason === 'donor_erased') return `retries stopped: donor data erased on ${day(stopped.at)}`;
  if (stopped.reason === 'payload_purged') return `retries stopped: payload purged on ${day(stopped.at)} (retention)`;
  return `retries stopped on ${day(stopped.at)} (${stopped.reason})`;
}

/** A receipt's body, if it is gone: erased, or purged by RECEIPT_BODY_RETENTION (`retentionMs`, as set now: retention-settings.ts). */
export function receiptBodyGone(row: { bodyPurgedAt: Date | null; erasedAt: Date | null; bodySha256: string | null }, retentionMs: number): TBodyGone | null {
  if (row.erasedAt) return { kind: 'erased', at: row.erasedAt.toISOString(), sha256: row.bodySha256, note: erasedNote(row.erasedAt, 'body') };
  if (row.bodyPurgedAt) {
    return { kind: 'purged', at: row.bodyPurgedAt.toISOString(), sha256: row.bodySha256, note: purgedNote(row.bodyPurgedAt, retentionMs) };
  }
  return null;
}

/** A message payload as the API answers it, if it is a tombstone ({"purged": …} / {"erased": …}). */
export function payloadGone(payload: unknown): TBodyGone | null {
  if (!payload || typeof payload !== 'object') return null;
  const p = payload as { purged?: { at?: string; retention?: string; sha256?: string }; erased?: { at?: string; sha256?: string } };
  const keys = Object.keys(payload);
  if (keys.length !== 1) return null;
  if (p.erased && typeof p.erased.at === 'string')
    return { kind: 'erased', at: p.erased.at, sha256: p.erased.sha256 ?? null, note: erasedNote(p.erased.at, 'payload') };
  if (p.purged && typeof p.purged.at === 'string') {
    return {
      kind: 'purged',
      at: p.purged.at,
      sha256: p.purged.sha256 ?? null,
      note: `payload purged on ${day(p.purged.at)} (retention ${p.purged.retention ?? '?'})`,
    };
  }
  return null;
}

/** An attempt's response body as the API answers it (EXT `responsePurged`), if retention or an erasure emptied it. */
export function responseGone(purged: { at: string; retention?: string; sha256?: string; reason?: string } | null | undefined): TBodyGone | null {
  if (!purged || typeof purged.at !== 'string') return null;
  if (purged.reason === 'erasure') return { kind: 'erased', at: purged.at, sha256: purged.sha256 || null, note: erasedNote(purged.at, 'response body') };
  const note = `response body purged on ${day(purged.at)}${purged.retention ? ` (retention ${purged.retention})` : ''}`;
  return { kind: 'purged', at: purged.at, sha256: purged.sha256 || null, note };
}
