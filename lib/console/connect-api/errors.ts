// A failed API call, as the console shows it: the status, the problem detail and the request id
// to quote to the service's operators.

export type TProblemInfo = { title?: string; detail?: string; errors?: { path: string; message: string }[] };

const BRAND = Symbol.for('giving-connect.ConnectApiError');

export class ConnectApiError extends Error {
  // The client lives on globalThis and is shared by the page and route-handler bundles, each with its
  // own copy of this class: `instanceof` checks a global brand rather than the class identity.
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
  readonly [BRAND] = true;
  readonly status: number; // 0: no response at all
  readonly requestId: string | null;
  readonly problem: TProblemInfo | null;
  readonly operation: string;
  /** An EXT operation the service does not offer (it answered 404/405 for the route itself). */
  readonly unsupported: boolean;

  constructor(message: string, init: { status: number; requestId?: string | null; problem?: TProblemInfo | null; operation: string; unsupported?: boolean }) {
    super(message);
    this.name = 'ConnectApiError';
    this.status = init.status;
    this.requestId = init.requestId ?? null;
    this.problem = init.problem ?? null;
    this.operation = init.operation;
    this.unsupported = init.unsupported ?? false;
  }

  withUnsupported(): ConnectApiError {
    const { status, requestId, problem, operation } = this;
    return new ConnectApiError(this.message, { status, requestId, problem, operation, unsupported: true });
  }
}

/** True when an EXT operation is missing from the service (404/405 on its route): hide that feature. */
export function isUnsupported(err: unknown): boolean {
  return err instanceof ConnectApiError && err.unsupported;
}
