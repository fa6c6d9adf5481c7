// Readiness for a load balancer: 200 when the store answers, its migrations are applied and this
// process's loops run; otherwise a 503 problem naming the failing part (lib/readiness).
import { NextResponse } from 'next/server';
import { otherMethods, route } from '@/lib/http/respond';
import { readinessAnswer } from '@/lib/readiness/check-readiness';

export const dynamic = 'force-dynamic';

export const GET = route(async () => {
  const { status, headers, body } = await readinessAnswer();
  return new NextResponse(body, { status, headers });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
