import type * as schema from '@/lib/db/schema/service';

export type TGrantRow = typeof schema.grants.$inferSelect;
export type TGrantStatus = 'Initiated' | 'Completed' | 'Canceled';
export type TGrantJson = {
  id: string;
  connectId: string;
  nonprofitId: string;
  trackingId: string;
  workflowSessionId: string;
  amount: number;
  feeAmount: number;
  coveredFees: boolean;
  status: TGrantStatus;
  fundId: string;
  fundName: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  note: string | null;
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
};

/** The Grant of the contract (also the `data` of a grant.succeeded event). */
export function grantToJson(row: TGrantRow): TGrantJson {
  return {
    id: row.id,
    connectId: row.connectId,
    nonprofitId: row.nonprofitId,
    trackingId: row.trackingId,
    workflowSessionId: row.workflowSessionId,
    amount: row.amount,
    feeAmount: row.feeAmount,
    coveredFees: row.coveredFees,
    status: row.status as TGrantStatus,
    fundId: row.fundId,
    fundName: row.fundName,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone ?? null,
    note: row.note ?? null,
    metadata: (row.metadata ?? {}) as Record<string, string>,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
