'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { acknowledgeAlert, SNOOZE_HOURS, snoozeAlert } from '@/lib/console/alerts/acknowledge-alert';
import { staffAction } from '@/lib/console/staff/staff-action';

// Acknowledge or snooze a firing alert from the alerts page: operators and admins, audited, as
// POST /api/alerts/{id}/acknowledge and /snooze.

const operator = { role: 'operator', next: '/alerts' } as const;
const ZId = z.uuid({ message: 'Unknown alert.' });
const firstIssue = (e: z.ZodError) => `${e.issues[0].path.join('.')} ${e.issues[0].message}`.trim();
const hoursMessage = `hours must be a whole number from ${SNOOZE_HOURS.min} to ${SNOOZE_HOURS.max}`;

export const acknowledgeAlertAction = staffAction(
  {
    ...operator,
    input: z.tuple([ZId, z.string().trim().max(500, { message: 'The note must be at most 500 characters.' })]),
    invalid: firstIssue,
    audit: { action: 'alert.acknowledge', target: ([id]) => [id], detail: ([, note]) => ({ note: note || null }) },
  },
  async ({ staff, input: [id, note] }) => {
    await acknowledgeAlert(staff.environment, id, staff.email, note || undefined);
    revalidatePath('/alerts');
    return { notice: 'Acknowledged: it stays firing, without reminders, until it resolves.' };
  },
);

export const snoozeAlertAction = staffAction(
  {
    ...operator,
    input: z.tuple([
      ZId,
      z
        .number({ message: hoursMessage })
        .int({ message: hoursMessage })
        .min(SNOOZE_HOURS.min, { message: hoursMessage })
        .max(SNOOZE_HOURS.max, { message: hoursMessage }),
    ]),
    invalid: firstIssue,
    audit: { action: 'alert.snooze', target: ([id]) => [id], detail: ([, hours]) => ({ hours }) },
  },
  async ({ staff, input: [id, hours] }) => {
    await snoozeAlert(staff.environment, id, hours);
    revalidatePath('/alerts');
    return { notice: `Snoozed for ${hours} h.` };
  },
);
