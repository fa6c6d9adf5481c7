// Service: the public keys that verify access tokens.
import { json, otherMethods, route } from '@/lib/http/respond';
import { publicJwks } from '@/lib/service/auth/signing-keys';

export const GET = route(async () => json(await publicJwks(), { headers: { 'cache-control': 'public, max-age=300' } }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
