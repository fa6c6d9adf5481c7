// An API timestamp in the one form the views compare and write (Date#toISOString: UTC, milliseconds).
// A timestamp already in that form is given back as it is — an export makes several per line, and
// `new Date` is not cheap under Next's server (it wraps the constructor) — any other is converted.

const CANONICAL = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

export function isoTime(timestamp: string): string {
  return CANONICAL.test(timestamp) && Number(timestamp.slice(8, 10)) <= 28 ? timestamp : new Date(timestamp).toISOString();
}
