import type * as schema from '@/lib/db/schema/service';

export type TConnectRow = typeof schema.connects.$inferSelect;
export type TConnectJson = {
  id: string;
  nonprofitId: string;
  name: string;
  active: boolean;
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
};

/** The Connect of the contract. Only Get Connect adds the API key (`withApiKey: true`). */
export function connectToJson(row: TConnectRow): TConnectJson;
export function connectToJson(row: TConnectRow, opts: { withApiKey: true }): TConnectJson & { apiKey: string };
export function connectToJson(row: TConnectRow, opts: { withApiKey?: boolean } = {}): TConnectJson & { apiKey?: string } {
  return {
    id: row.id,
    nonprofitId: row.nonprofitId,
    name: row.name,
    active: row.active,
    metadata: (row.metadata ?? {}) as Record<string, string>,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(opts.withApiKey ? { apiKey: row.apiKey } : {}),
  };
}
