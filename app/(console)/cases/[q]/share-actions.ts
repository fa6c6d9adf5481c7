'use server';

import { revalidatePath } from 'next/cache';
import { createShare, revokeShare, ZCreateShare } from '@/lib/console/share/shares';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { actionErrorInfo, fieldErrorsOf, type TActionResult } from '../../_lib/errors';

// The case page's share links (operators): make one (its URL is returned this once), revoke one.

export async function createShareAction(input: { query: string; ticket: string; expiresInHours: number }): Promise<TActionResult<{ id: string; url: string; expiresAt: string }>> {
  const { staff } = await staffApi('operator');
  const parsed = ZCreateShare.safeParse(input);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error.issues);
    return { ok: false, error: { message: Object.entries(errors).map(([k, v]) => `${k}: ${v}`).join(' ') } };
  }
  try {
    const made = await createShare(staff, parsed.data);
    revalidatePath(`/cases/${encodeURIComponent(parsed.data.query)}`);
    return { ok: true, data: made };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
}

export async function revokeShareAction(id: string): Promise<TActionResult> {
  const { staff } = await staffApi('operator');
  try {
    const gone = await revokeShare(staff, String(id));
    if (!gone) return { ok: false, error: { message: 'No such share link.' } };
    revalidatePath(`/cases/${encodeURIComponent(gone.query)}`);
    return { ok: true };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
}
