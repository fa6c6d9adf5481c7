// Console: GET /api/reconciliation/columns — the reconciliation CSV's column dictionary: each column in order with what it means.
import { columnDictionary } from '@/lib/console/reconciliation/reconciliation-columns';
import { withStaff } from '@/lib/console/staff/with-staff';
import { json, otherMethods } from '@/lib/http/respond';

export const GET = withStaff(async () => json(columnDictionary(), { headers: { 'cache-control': 'no-store' } }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
