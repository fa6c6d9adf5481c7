// Service: the reference page's script — Scalar's prebuilt browser bundle, served from this app.
import { NextResponse } from 'next/server';
import { otherMethods, route } from '@/lib/http/respond';
import { referenceBundle } from '@/lib/openapi/reference-page';

export const GET = route(
  async () =>
    new NextResponse(new Uint8Array(await referenceBundle()), {
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' },
    }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
