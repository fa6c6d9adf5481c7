// Console: the alerts of the staff member's environment, firing first, then the most recently cleared, with who acknowledged or snoozed them (?summary=1: the counts and the one the banner names).
import { firingAlerts, listAlerts } from '@/lib/console/alerts/list-alerts';
import { withStaff } from '@/lib/console/staff/with-staff';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff(async ({ req, staff }) => {
  const summary = req.nextUrl.searchParams.get('summary') === '1';
  const [firing, results] = await Promise.all([firingAlerts(staff.environment), summary ? undefined : listAlerts(staff.environment)]);
  return json({
    firing: firing.count,
    quietFiring: firing.quiet,
    oldestFiringId: firing.oldestId,
    oldestFiring: firing.oldest,
    ...(results ? { results } : {}),
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
