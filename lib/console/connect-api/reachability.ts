// Whether the console can reach each host of an API, logged once per change of state
// (reachable → unreachable → reachable), with the request id to quote to the service's operators.
// The first state of a host is not logged here: the start check (check-environment.ts) reports it.
// Lines carry the host's origin, the operation and the request id: never a token, secret or body.

/** Statuses a gateway answers when the service behind it is down. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

export type TProbeOutcome = { url: string; operation: string; requestId: string | null } & ({ status: number } | { networkError: string });

export type TLog = (line: string) => void;

export class Reachability {
  private readonly state = new Map<string, boolean>();

  constructor(
    private readonly label: string,
    private readonly log: { down: TLog; up: TLog } = { down: (l) => console.warn(l), up: (l) => console.log(l) },
  ) {}

  note(outcome: TProbeOutcome): void {
    const origin = new URL(outcome.url).origin;
    const up = 'status' in outcome && !GATEWAY_STATUSES.has(outcome.status);
    const before = this.state.get(origin);
    this.state.set(origin, up);
    if (before === undefined || before === up) return;
    const what = 'status' in outcome ? `${outcome.operation} answered ${outcome.status}` : `${outcome.operation}: ${outcome.networkError}`;
    const line = `${this.label}: ${origin} ${up ? 'reachable again' : 'unreachable'} (${what}; request id ${outcome.requestId ?? 'none'})`;
    (up ? this.log.up : this.log.down)(line);
  }
}
