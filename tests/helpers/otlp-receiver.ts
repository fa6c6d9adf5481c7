import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A real OTLP/HTTP trace receiver on loopback: it takes what an exporter POSTs to /v1/traces as
// JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json), answers 200 as a collector does, and keeps every
// span decoded — its service, ids, parent, kind, attributes as plain values, links and status.

export type TSpan = {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string }[];
  status: { code?: number; message?: string };
};

type TAnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type TKeyValue = { key: string; value: TAnyValue };

const plain = (v: TAnyValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue ?? ''));
const attributesOf = (kvs: TKeyValue[] = []) => Object.fromEntries(kvs.map((kv) => [kv.key, plain(kv.value)]));

export async function startOtlpReceiver(): Promise<{ url: string; spans: TSpan[]; requests: () => number; close: () => Promise<void> }> {
  const spans: TSpan[] = [];
  let requests = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !/json/.test(req.headers['content-type'] ?? '')) {
        res.writeHead(415).end();
        return;
      }
      requests++;
      const doc = JSON.parse(body) as { resourceSpans?: { resource?: { attributes?: TKeyValue[] }; scopeSpans?: { spans?: any[] }[] }[] };
      for (const rs of doc.resourceSpans ?? []) {
        const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              service,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              name: s.name,
              kind: s.kind,
              attributes: attributesOf(s.attributes),
              links: (s.links ?? []).map((l: { traceId: string; spanId: string }) => ({ traceId: l.traceId, spanId: l.spanId })),
              status: s.status ?? {},
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, spans, requests: () => requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
