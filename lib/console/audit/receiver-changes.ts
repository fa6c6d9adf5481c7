import type { TReceiver } from '@/lib/console/receivers';

/**
 * What a receiver update changed, for the audit log's detail: the names of the changed settings,
 * and for the signing secrets only how many there are now — never the secrets themselves.
 */
export function receiverChanges(
  before: TReceiver,
  after: Partial<Pick<TReceiver, 'name' | 'secrets' | 'responseStatus' | 'responseBody' | 'responseDelayMs'>>,
): Record<string, string | number> {
  const changed = (['name', 'secrets', 'responseStatus', 'responseBody', 'responseDelayMs'] as const).filter(
    (k) => after[k] !== undefined && JSON.stringify(after[k]) !== JSON.stringify(before[k]),
  );
  return {
    changed: changed.join(',') || 'nothing',
    ...(changed.includes('secrets') ? { verifiers: after.secrets?.length ?? 0 } : {}),
    ...(changed.includes('responseStatus') ? { responseStatus: after.responseStatus ?? 0 } : {}),
  };
}
