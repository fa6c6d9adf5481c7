'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { createShare, revokeShare, ZCreateShare } from '@/lib/console/share/shares';
import { fieldErrorsOf } from '@/lib/console/action-result';
import { staffAction } from '@/lib/console/staff/staff-action';
import { ApiError } from '@/lib/http/errors';

// The case page's share links (operators): make one (its URL is returned this once), revoke one.
// Both are audited by lib/console/share/shares.ts.

export const createShareAction = staffAction(
  {
    role: 'operator',
    input: z.tuple([ZCreateShare]),
    invalid: (e) =>
      Object.entries(fieldErrorsOf(e.issues.map((i) => ({ ...i, path: i.path.slice(1) }))))
        .map(([k, v]) => `${k}: ${v}`)
        .join(' '),
  },
  async ({ staff, input: [share] }): Promise<{ data: { id: string; url: string; expiresAt: string } }> => {
    const made = await createShare(staff, share);
    revalidatePath(`/cases/${encodeURIComponent(share.query)}`);
    return { data: made };
  },
);

export const revokeShareAction = staffAction({ role: 'operator', input: z.tuple([z.coerce.string()]) }, async ({ staff, input: [id] }) => {
  const gone = await revokeShare(staff, id);
  if (!gone) throw new ApiError('not_found', 'No such share link.');
  revalidatePath(`/cases/${encodeURIComponent(gone.query)}`);
});
