// Cutting secrets and personal details out of text bound for a log: API keys, signing secrets,
// tokens, e-mail addresses, phone-like numbers, and the values a database error message quotes.

const SECRETS: [RegExp, string][] = [
  [/\bsk_(test|live)_[A-Za-z0-9]+/g, 'sk_$1_…'],
  [/\bwhsec_[A-Za-z0-9+/=]+/g, 'whsec_…'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 …'],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '<jwt>'],
  [/[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[A-Za-z]{2,}/g, '<email>'],
  // Not a date (2026-11-23 would otherwise read as a number), nor the middle of a longer run of digits.
  [/(?<![\d.-])(?!\d{4}-\d\d-\d\d(?!\d))\+?\d[\d\s().-]{8,}\d/g, '<number>'],
];

/** `text` with secrets, e-mail addresses and long numbers (phones, cards) replaced. */
export function redact(text: string): string {
  return SECRETS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** A database message without the values it quotes: `invalid input syntax for type integer: "…"`. */
export function databaseMessage(message: string): string {
  return redact(message.replace(/("[^"]*"|'[^']*')\s*$/, '"…"').replace(/\(([^)]*)\)=\(([^)]*)\)/g, '($1)=(…)'));
}
