import type * as schema from '@/lib/db/schema/service';

export type TNonprofitRow = typeof schema.nonprofits.$inferSelect;
export type TNonprofitJson = {
  id: string;
  ein: string;
  name: string;
  preferredName: string | null;
  website: string | null;
  createdAt: string;
  updatedAt: string;
};

/** The Nonprofit of the contract; the contact user is kept for support and never returned. */
export function nonprofitToJson(row: TNonprofitRow): TNonprofitJson {
  return {
    id: row.id,
    ein: row.ein,
    name: row.name,
    preferredName: row.preferredName ?? null,
    website: row.website ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
