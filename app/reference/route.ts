// Service: EXT GET /reference — the API reference page (Scalar, bundled; reads /openapi.json).
import { NextResponse } from 'next/server';
import { otherMethods, route } from '@/lib/http/respond';
import { referencePageHtml } from '@/lib/openapi/reference-page';

export const GET = route(async () => new NextResponse(referencePageHtml(), { headers: { 'content-type': 'text/html; charset=utf-8' } }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
