import { z } from 'zod';
import { parseQuery } from '@/lib/http/query';
import { DEFAULT_HEALTH_WINDOW, HEALTH_WINDOWS, type THealthWindow } from './health-types';

const ZHealthQuery = z.object({
  window: z.enum(HEALTH_WINDOWS, { message: `must be one of: ${HEALTH_WINDOWS.join(', ')}` }).default(DEFAULT_HEALTH_WINDOW),
});

/** The console routes' `window` parameter: absent is the default, a wrong one a 400 naming it. */
export function parseHealthWindow(searchParams: URLSearchParams): THealthWindow {
  return parseQuery(searchParams, ZHealthQuery).window;
}
