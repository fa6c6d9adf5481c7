// A failed API call, as the console shows it: the status, the problem detail and the request id
// to quote to the service's operators.

export type TProblemInfo = { title?: string; detail?: string; errors?: { path: string; message: string }[] };

export class ConnectApiError extends Error {
  readonly status: number; // 0: no response at all
  readonly requestId: string | null;
  readonly problem: TProblemInfo | null;
  readonly operation: string;
  /** An EXT operation the service does not offer (it answered 404/405 for the route itself). */
  readonly unsupported: boolean;

  constructor(
    message: string,
    init: { status: number; requestId?: string | null; problem?: TProblemInfo | null; operation: string; unsupported?: boolean },
  ) {
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
