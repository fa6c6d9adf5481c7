import { metrics } from './registry';

/** This process's metrics in the Prometheus text format (the queue gauges are registered at boot when the service runs here). */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  const { registry } = metrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}
