import http from 'node:http';
import { problemBody } from '@/lib/http/errors';
import { readinessAnswer } from './check-readiness';

// The standalone worker serves no HTTP of its own; with WORKER_HEALTH_PORT set it answers two
// paths for a container's or supervisor's health check: GET /health (liveness, no I/O) and
// GET /ready (the same readiness as the app's GET /api/ready). Nothing else.

function send(res: http.ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

/** Listens on `port` (and `host`, all interfaces when unset); resolves once listening, with a close function. */
export async function serveReadiness(port: number, host: string | undefined): Promise<() => Promise<void>> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(res, 405, { allow: 'GET, HEAD', 'content-type': 'application/problem+json' }, JSON.stringify(problemBody(405, 'Only GET is served here.')));
    }
    if (path === '/health') return send(res, 200, { 'content-type': 'application/json', 'cache-control': 'no-store' }, '{"status":"ok"}');
    if (path === '/ready') {
      readinessAnswer().then(
        ({ status, headers, body }) => send(res, status, headers, body),
        () => send(res, 500, { 'content-type': 'application/problem+json' }, JSON.stringify(problemBody(500, 'The readiness check failed.'))),
      );
      return;
    }
    send(res, 404, { 'content-type': 'application/problem+json' }, JSON.stringify(problemBody(404, 'This port serves GET /health and GET /ready.')));
  });
  server.headersTimeout = 5000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}
