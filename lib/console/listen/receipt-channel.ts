// The NOTIFY channel a receipt's commit is announced on; its payload is the receivers' ids, comma-separated.
export const RECEIPTS_CHANNEL = 'gc_receipts';
