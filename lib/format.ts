// The console's words and numbers, written once: pure, for server and client code alike.

/** `3 messages`, `1 message`; `many` for an irregular plural. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
