'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { requireRole, setEnvironment } from '@/lib/console/staff/session';
import { setUserTheme, ZTheme } from '@/lib/console/staff/theme';
import { environments } from '@/lib/console/connect-api';

const ZEnvironment = z.enum(['sandbox', 'production']);

/** Switches the API environment for this session; tracked webhooks differ per environment, so start at the list. */
export async function switchEnvironmentAction(formData: FormData): Promise<void> {
  await requireRole('viewer');
  const parsed = ZEnvironment.safeParse(formData.get('environment'));
  if (!parsed.success) return;
  if (!environments().some((e) => e.name === parsed.data && e.configured)) return;
  await setEnvironment(parsed.data);
  redirect('/webhooks');
}

/** Stores the staff member's theme (system / light / dark); the page re-renders with it as the class of <html>. */
export async function setThemeAction(formData: FormData): Promise<void> {
  const staff = await requireRole('viewer');
  const parsed = ZTheme.safeParse(formData.get('theme'));
  if (!parsed.success) return;
  await setUserTheme(staff.userId, parsed.data);
}
