// A 303 to `location` that no cache keeps (the sign-in routes' answers carry cookies).
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}
