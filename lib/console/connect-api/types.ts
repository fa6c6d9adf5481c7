import type { FetchResponse } from 'openapi-fetch';
import type { components, paths } from '@/openapi/connect-api';
import type { TMethod } from './contract';

// The API's resources as the console reads them: the service's OpenAPI document made into types
// (openapi/connect-api.d.ts, `npm run openapi`), so a field the service changes is a type error
// in every console caller. Only names here, and the few unions the console reads as one.

type TSchemas = components['schemas'];
export type TPaths = paths;

/** The success body of `method template` (for NDJSON, one line of it). */
export type TData<P extends keyof paths, M extends TMethod, Media extends `${string}/${string}` = 'application/json'> = NonNullable<
  FetchResponse<paths[P][M] & Record<string | number, unknown>, object, Media>['data']
>;
export type TLine<P extends keyof paths> = TData<P, 'get', 'application/x-ndjson'>;

export type TPage<T> = { results: T[]; nextPageToken?: string };
export type TNonprofit = TSchemas['Nonprofit'];
export type TListedNonprofit = TSchemas['ListedNonprofit'];
export type TConnect = TSchemas['Connect'] & { apiKey?: string };
export type TGrant = TSchemas['Grant'];
export type TWebhook = TSchemas['Webhook'];
export type TWebhookStats = TSchemas['WebhookStats'];
export type TRetriesStopped = NonNullable<TSchemas['RetriesStopped']>;
export type TRecoverRun = TSchemas['RecoverRun'];
export type TRecoverPreview = TSchemas['RecoverPreview'];
export type TRetryPendingPreview = TSchemas['RetryPendingPreview'];
export type TRetryPendingResult = TSchemas['RetryPendingResult'];
export type TErasureReport = TSchemas['ErasureReport'];
export type TAccountRetention = TSchemas['AccountRetention'];
export type TAccountMessageSummary = TSchemas['AccountMessage'];
export type TAccountMessage = TSchemas['AccountMessageDetail'];
export type TMessageDelivery = TAccountMessage['deliveries'][number];
export type TTroubledMessage = TSchemas['TroubledMessage'];
export type TGrantDeliveryLine = TSchemas['GrantDelivery'];

/** An attempt, with its response when the operation carries one. */
export type TAttempt = TSchemas['Attempt'] & Partial<Pick<TSchemas['AttemptWithResponse'], 'response' | 'responsePurged'>>;

/** A webhook's message as every message operation answers it (listed, with its payload, streamed, troubled). */
export type TMessage = Omit<TSchemas['ListedMessage'], 'lastAttempt' | 'attempts' | 'payload'> & {
  payload?: TSchemas['MessageWithPayload']['payload'];
  lastAttempt: TAttempt | null;
  attempts?: TAttempt[];
};
