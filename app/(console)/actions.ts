'use server';

import { z } from 'zod';
import { setEnvironment } from '@/lib/console/staff/session';
import { staffFormPost } from '@/lib/console/staff/staff-action';
import { setUserTheme, ZTheme } from '@/lib/console/staff/theme';
import { environments } from '@/lib/console/connect-api';

// The console frame's actions, for every signed-in staff member: the API environment and the theme.

/** Switches the API environment for this session; tracked webhooks differ per environment, so start at the list. */
export const switchEnvironmentAction = staffFormPost(
  {
    role: 'viewer',
    read: (form) => ({ environment: String(form.get('environment') ?? '') }),
    input: z.object({ environment: z.enum(['sandbox', 'production']).refine((name) => environments().some((e) => e.name === name && e.configured)) }),
  },
  async ({ input: { environment } }) => {
    await setEnvironment(environment);
    return '/webhooks';
  },
);

/** Stores the staff member's theme (system / light / dark); the page re-renders with it as the class of <html>. */
export const setThemeAction = staffFormPost(
  { role: 'viewer', read: (form) => ({ theme: String(form.get('theme') ?? '') }), input: z.object({ theme: ZTheme }) },
  async ({ staff, input: { theme } }) => {
    await setUserTheme(staff.userId, theme);
  },
);
