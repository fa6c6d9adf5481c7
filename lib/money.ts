// Money as people read it, for both halves (the donor's thanks page, the console's pages): pure.

/** An amount in cents, with its currency: `$1,500.00` (grants are in US dollars unless they say otherwise). */
export function formatMoney(cents: number, currency = 'USD'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
}
