// GET /metrics — this process's Prometheus metrics; 404 unless METRICS_TOKEN is set, then that bearer token is required.
import { NextResponse } from 'next/server';
import { env } from '@/lib/env';
import { checkMetricsToken } from '@/lib/metrics/check-metrics-token';
import { renderMetrics } from '@/lib/metrics/render-metrics';
import { otherMethods, route } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = route(async ({ req }) => {
  checkMetricsToken(env.METRICS_TOKEN, req.headers.get('authorization'));
  const { body, contentType } = await renderMetrics();
  return new NextResponse(body, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
