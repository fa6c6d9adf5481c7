'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { requireRole, setEnvironment } from '@/lib/console/staff/session';
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
