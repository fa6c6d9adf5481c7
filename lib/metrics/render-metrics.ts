import { env } from '@/lib/env';
import { registerQueueGauges } from '@/lib/service/delivery/queue-depth-gauge';
import { metrics } from './registry';

/** This process's metrics in the Prometheus text format, with the queue read from the database when the service runs here. */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  if (env.SERVICE_MODE === 'on') registerQueueGauges();
  const { registry } = metrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}
