import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Link,
  type Span,
} from '@opentelemetry/api';
import { tracingOn } from './tracing';

// The spans the app makes, over the OpenTelemetry API alone: with no SDK registered (tracing off,
// tracing.ts) each is the API's no-op span, a few property reads. With it on they are exported.

const tracer = () => trace.getTracer('giving-connect-console');

/** The span `withSpan` hands its work when this process exports none: no span made, no context switched (ingest and delivery run through it). */
const UNRECORDED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Runs `fn` in a span named `name` (ended when it settles; an exception marks it failed); with tracing off, runs it as it is. */
export async function withSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>, links?: Link[], kind?: SpanKind): Promise<T> {
  if (!tracingOn()) return fn(UNRECORDED);
  return tracer().startActiveSpan(name, { attributes, links, kind }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** A statement's short name for its span: `insert console.receipts`, `with` (a CTE), … (OpenTelemetry's db.query.summary). */
export function querySummary(text: string): string {
  const verb = (/^\s*(\w+)/.exec(text)?.[1] ?? 'query').toLowerCase();
  const table = /\b(?:into|update|from)\s+((?:service|console)\.\w+)/i.exec(text)?.[1];
  return table ? `${verb} ${table}` : verb;
}

/**
 * Runs a store statement in a client span, named by its prepared name or its summary, with its
 * fixed text (values are parameters, never in the text) and the rows it returned — only under a
 * recorded span (a request, an attempt, an ingest, an alert), as instrumentation-pg's
 * requireParentSpan: the worker's claims between them would be a root span per poll.
 */
export async function inStatementSpan<T>(text: string, name: string | undefined, run: () => Promise<T[]>): Promise<T[]> {
  if (!tracingOn() || !trace.getActiveSpan()?.isRecording()) return run();
  const summary = name ?? querySummary(text);
  const attributes = { 'db.system.name': 'postgresql', 'db.query.summary': summary, 'db.query.text': text.length > 4000 ? `${text.slice(0, 4000)}…` : text };
  return withSpan(
    summary,
    attributes,
    async (span) => {
      const rows = await run();
      span.setAttribute('db.response.returned_rows', rows.length);
      return rows;
    },
    undefined,
    SpanKind.CLIENT,
  );
}

/** The active span's W3C traceparent when it is recorded (tracing on), else null: kept with a message so its attempts link back. */
export function currentTraceparent(): string | null {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** A link to the span a stored traceparent names (the request that caused this work), or none. */
export function linkTo(traceparent: string | null | undefined): Link[] {
  if (!traceparent) return [];
  const ctx = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent }));
  return ctx ? [{ context: ctx }] : [];
}

/** ` trace_id=…` for a log line written inside a recorded span, so the line and its trace meet; '' otherwise. */
export function traceIdForLog(): string {
  const span = trace.getActiveSpan();
  return span?.isRecording() ? ` trace_id=${span.spanContext().traceId}` : '';
}

/** A request's path with its ids as {id}: a span name of few values (`POST /v1/webhooks/{id}/test`). */
export function routeOf(url: string): string {
  const path = (url.split('?')[0] || '/').replace(/^\/(ingest|cases|connect|share)\/[^/]+/, '/$1/{id}');
  return path.replace(/\/[^/{]*\d[^/]*(?=\/|$)/g, (seg) => (/^\/v\d+$/.test(seg) ? seg : '/{id}'));
}

type TReq = { method?: string; url?: string; headers: Record<string, string | string[] | undefined> };
type TRes = { statusCode: number; once(event: 'finish' | 'close', fn: () => void): unknown };

/**
 * Serves one HTTP request inside a server span (scripts/server.mjs, when tracing is on): continued
 * from the caller's traceparent, named by method and route, ended with the answer's status.
 */
export function serveInSpan(req: TReq, res: TRes, serve: () => void): void {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const route = routeOf(req.url ?? '/');
  const span = tracer().startSpan(
    `${req.method ?? 'GET'} ${route}`,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? 'GET', 'url.path': (req.url ?? '/').split('?')[0], 'http.route': route } },
    parent,
  );
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  res.once('finish', end);
  res.once('close', end);
  context.with(trace.setSpan(parent, span), serve);
}
