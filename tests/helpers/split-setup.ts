import type { TApp } from './app';

// The split setup an operator makes: a console-only instance configured from a service
// instance's start banner — its API base URL exactly as printed, and a client's credentials.

/** The "API base URL" line of `service`'s start banner, as printed. */
export function bannerApiBaseUrl(service: TApp): string {
  const printed = /^\s+API base URL\s+(\S+)$/m.exec(service.logs())?.[1];
  if (!printed) throw new Error(`no API base URL in the banner:\n${service.logs()}`);
  return printed;
}

/** A console-only instance's settings against `service`: SERVICE_MODE=off, the banner's base URL, the credentials; nothing else. */
export function consoleOnlyEnv(service: TApp, credentials: { client_id: string; client_secret: string }): Record<string, string> {
  return {
    SERVICE_MODE: 'off',
    CONNECT_API_BASE_URL: bannerApiBaseUrl(service),
    CONNECT_CLIENT_ID: credentials.client_id,
    CONNECT_CLIENT_SECRET: credentials.client_secret,
  };
}
