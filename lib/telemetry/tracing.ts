import { env } from '@/lib/env';
import { processSingleton } from '@/lib/process-singleton';

// OpenTelemetry traces, exported over OTLP by the official SDK for Node when the standard variable
// says where (OTEL_EXPORTER_OTLP_ENDPOINT): off otherwise, and then nothing of the SDK is loaded and
// spans.ts makes no spans. OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf by default, or http/json; gRPC is
// not bundled) picks the exporter; the SDK reads the other standard variables itself: headers,
// timeouts, OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, the batch sizes. docs/OPERATIONS.md.

// One per process (server.mjs starts it; boot's shutdown, in Next's bundle, stops it).
const state = processSingleton('tracing', (): { shutdown: (() => Promise<void>) | null } => ({ shutdown: null }));

/** Whether this process exports traces (the settings name an endpoint, and the SDK is not disabled). */
export function tracingWanted(): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

/**
 * Starts exporting this process's spans, as `serviceName` unless OTEL_SERVICE_NAME names it: the
 * tracer provider registered globally (with W3C trace context propagation and the async context
 * that carries the active span), a batch processor and the OTLP exporter of the chosen protocol.
 * Returns a line for the banner, or null when tracing is off.
 */
export async function startTracing(serviceName: string): Promise<string | null> {
  if (!tracingWanted() || state.shutdown) return null;
  const [{ NodeTracerProvider, BatchSpanProcessor }, { detectResources, envDetector, resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
  ]);
  const json = env.OTEL_EXPORTER_OTLP_PROTOCOL === 'http/json';
  const { OTLPTraceExporter } = json ? await import('@opentelemetry/exporter-trace-otlp-http') : await import('@opentelemetry/exporter-trace-otlp-proto');
  const provider = new NodeTracerProvider({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) win over the default name.
    resource: resourceFromAttributes({ 'service.name': serviceName }).merge(detectResources({ detectors: [envDetector] })),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  state.shutdown = () => provider.shutdown();
  const where = `${env.OTEL_EXPORTER_OTLP_ENDPOINT!.replace(/\/$/, '')}/v1/traces`;
  return `traces           OpenTelemetry over OTLP (${json ? 'http/json' : 'http/protobuf'}) to ${where.replace(/\/\/[^@/]*@/, '//')}`;
}

/** Whether this process exports spans now (startTracing ran and stopTracing did not). */
export function tracingOn(): boolean {
  return state.shutdown !== null;
}

/** Sends what is left of the spans and stops exporting (a stopping process, before it exits). */
export async function stopTracing(): Promise<void> {
  const stop = state.shutdown;
  state.shutdown = null;
  await stop?.().catch((err) => console.error(`traces could not be sent at shutdown: ${err instanceof Error ? err.message : err}`));
}
