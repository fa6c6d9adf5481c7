// Console: the receivers as JSON — list, and create ({name, slug?, secret?}).
import { z } from 'zod';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';
import { createReceiver, listReceivers, receiverJson } from '@/lib/console/receivers';
import { withStaff } from '@/lib/console/with-staff';

export const dynamic = 'force-dynamic';

const ZCreate = z.object({ name: z.string(), slug: z.string().optional(), secret: z.string().optional() });

export const GET = withStaff(async () => json({ results: (await listReceivers()).map(receiverJson) }));

export const POST = withStaff(async ({ req }) => {
  const receiver = await createReceiver(await readJson(req, ZCreate));
  return json(receiverJson(receiver), { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
