// Receivers (the console's webhook endpoints at /ingest/{slug}) and the receipts they stored.
export * from './types';
export * from './receiver-input';
export { getReceiver } from './get-receiver';
export { createReceiver, ingestUrl, listReceivers, updateReceiver } from './manage-receivers';
export { receiverForIngest } from './ingest-cache';
export { getReceipt, getReceipts, listReceipts } from './receipts';
export { receiptJson, receiverJson } from './receiver-json';
export { isSecretStandIn, receiverForRole, resolveSecretStandIns } from './secrets-for-role';
