import 'server-only';
import { requireStaff } from '@/lib/console/staff/session';
import { connectApi } from '@/lib/console/connect-api';

/** The signed-in staff member and the API client of their chosen environment. Every page and action starts here. */
export async function staffApi() {
  const staff = await requireStaff();
  return { staff, api: connectApi(staff.environment) };
}
