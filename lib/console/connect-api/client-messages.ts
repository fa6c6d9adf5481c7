import {
  ZAccountMessage,
  ZAccountMessagePage,
  ZAttempt,
  ZMessage,
  ZPage,
  ZRecoverPreview,
  ZRecoverRun,
  ZRetryPendingPreview,
  ZRetryPendingResult,
  ZTroubledCounts,
  ZTroubledMessage,
  type TAccountMessage,
  type TAccountMessagePage,
  type TAttempt,
  type TMessage,
  type TPage,
  type TRecoverPreview,
  type TRecoverRun,
  type TRetryPendingPreview,
  type TRetryPendingResult,
  type TTroubledCounts,
  type TTroubledMessage,
} from './schemas';
import { isMessage } from './check-message';
import { isGrantDeliveryLine, ZGrantDeliveryLine, type TGrantDeliveryLine } from './grant-deliveries-schema';
import { enc, type TPageQuery } from './transport';
import { ConnectApiStreamTransport, type TLineStream } from './transport-stream';

// The Giving Connect API's message operations for the console: the account's messages (EXT), a
// webhook's messages and attempts, test events, resends, recover runs and retry-now. ConnectApi
// (client.ts) adds the rest.

export class ConnectApiMessages extends ConnectApiStreamTransport {
  /* ------------------------------------------------------------- messages */

  /** EXT (like Svix's /msg): the account's messages, newest first, whatever webhooks they went to; `tag` is exact. */
  listAccountMessages(
    query: TPageQuery & {
      tag?: string;
      eventType?: string;
      before?: string;
      after?: string;
      delivered?: boolean;
      /** Payload search (EXT of the EXT, migration 0019): a JSON value at a dotted path, or words. */
      payloadPath?: string;
      payloadEquals?: string;
      payloadText?: string;
      /** EXT: each result with the webhooks it was queued for (`webhookIds`). */
      withWebhooks?: boolean;
    } = {},
  ): Promise<TAccountMessagePage> {
    return this.call(
      {
        operation: 'list account messages',
        method: 'GET',
        path: '/v1/messages',
        query: { ...query, delivered: query.delivered === undefined ? undefined : String(query.delivered), withWebhooks: query.withWebhooks ? 'true' : undefined },
        idempotent: true,
        ext: 'list',
      },
      ZAccountMessagePage,
    );
  }

  /**
   * EXT: one message of the account by its `msg_` id or `evt_` event id, with its payload and a
   * delivery per webhook it was queued for (none when nothing was subscribed); `withAttempts`: each
   * with all its attempts and its newest one's response (EXT). A 404 is "no such
   * message" when the account's message list answers, otherwise the route is missing.
   */
  getAccountMessage(idOrEventId: string, { withAttempts = false }: { withAttempts?: boolean } = {}): Promise<TAccountMessage> {
    return this.call(
      {
        operation: 'get account message',
        method: 'GET',
        path: `/v1/messages/${enc(idOrEventId)}`,
        query: { withAttempts: withAttempts ? 'true' : undefined },
        idempotent: true,
        // The route exists when the account's message list answers: then a 404 is the message's.
        ext: { resourceMissing: () => this.succeeds('/v1/messages', { pageLimit: 1 }) },
      },
      ZAccountMessage,
    );
  }

  listMessages(
    webhookId: string,
    query: TPageQuery & { status?: string; eventType?: string; before?: string; after?: string; withContent?: boolean; withAttempts?: boolean } = {},
  ): Promise<TPage<TMessage>> {
    return this.call(
      {
        operation: 'list messages',
        method: 'GET',
        path: `/v1/webhooks/${enc(webhookId)}/messages`,
        query: { ...query, withContent: query.withContent ? 'true' : undefined, withAttempts: query.withAttempts ? 'true' : undefined },
        idempotent: true,
      },
      ZPage(ZMessage),
    );
  }

  /**
   * EXT: every message of the webhook the filters keep, newest first, each with its payload, all its
   * attempts and its newest attempt's response (NDJSON, read as the caller iterates). Unsupported
   * (a 404 while the webhook's messages list) on a service without it.
   */
  streamMessages(webhookId: string, query: { status?: string; eventType?: string; before?: string; after?: string } = {}): Promise<TLineStream<TMessage>> {
    return this.streamLines(
      { operation: 'stream messages', path: `/v1/webhooks/${enc(webhookId)}/messages/stream`, query, idempotent: true, ext: this.webhookExt(webhookId) },
      ZMessage,
      isMessage,
    );
  }

  /** EXT: the account's grants made in [after, before), oldest first, each with its message's delivery to every webhook (NDJSON). Unsupported (404/405) on a service without it. */
  streamGrantDeliveries(query: { after: string; before: string; nonprofit?: string }): Promise<TLineStream<TGrantDeliveryLine>> {
    return this.streamLines({ operation: 'stream grant deliveries', path: '/v1/grants/deliveries', query, idempotent: true, ext: 'list' }, ZGrantDeliveryLine, isGrantDeliveryLine);
  }

  /** EXT: the account's failed (`state=failed`) or retrying (pending after ≥ 2 attempts) messages across its webhooks, newest first, each with its payload and newest response. */
  listTroubledMessages(
    state: 'failed' | 'retrying',
    { messages, ...query }: TPageQuery & { before?: string; after?: string; withContent?: 'true' | 'false'; messages?: string[] } = {},
  ): Promise<TPage<TTroubledMessage>> {
    return this.call(
      {
        operation: 'list troubled messages',
        method: 'GET',
        path: '/v1/webhooks/messages',
        query: { state, withContent: 'true', ...query, ...(messages ? { message: messages.join(',') } : {}) },
        idempotent: true,
        ext: 'list',
      },
      ZPage(ZTroubledMessage),
    );
  }

  /** EXT: each webhook's failed and retrying messages in a window, exact up to `cap`. */
  countTroubledMessages(query: { before?: string; after?: string; cap?: number } = {}): Promise<TTroubledCounts> {
    return this.call(
      { operation: 'count troubled messages', method: 'GET', path: '/v1/webhooks/messages/counts', query: { ...query, cap: query.cap === undefined ? undefined : String(query.cap) }, idempotent: true, ext: 'list' },
      ZTroubledCounts,
    );
  }

  getMessage(webhookId: string, messageId: string): Promise<TMessage> {
    return this.call(
      { operation: 'get message', method: 'GET', path: `/v1/webhooks/${enc(webhookId)}/messages/${enc(messageId)}`, idempotent: true },
      ZMessage,
    );
  }

  listAttempts(webhookId: string, messageId: string, page: TPageQuery = {}): Promise<TPage<TAttempt>> {
    return this.call(
      {
        operation: 'list attempts',
        method: 'GET',
        path: `/v1/webhooks/${enc(webhookId)}/messages/${enc(messageId)}/attempts`,
        query: { ...page },
        idempotent: true,
      },
      ZPage(ZAttempt),
    );
  }

  getAttempt(webhookId: string, messageId: string, attemptId: string): Promise<TAttempt> {
    return this.call(
      {
        operation: 'get attempt',
        method: 'GET',
        path: `/v1/webhooks/${enc(webhookId)}/messages/${enc(messageId)}/attempts/${enc(attemptId)}`,
        idempotent: true,
      },
      ZAttempt,
    );
  }

  sendTestEvent(webhookId: string, eventType?: string): Promise<TMessage> {
    return this.call(
      { operation: 'send test event', method: 'POST', path: `/v1/webhooks/${enc(webhookId)}/test`, body: eventType ? { eventType } : {} },
      ZMessage,
    );
  }

  /** EXT */
  resendMessage(webhookId: string, messageId: string): Promise<TAttempt> {
    return this.call(
      {
        operation: 'resend message',
        method: 'POST',
        path: `/v1/webhooks/${enc(webhookId)}/messages/${enc(messageId)}/resend`,
        ext: { probe: () => this.succeeds(`/v1/webhooks/${enc(webhookId)}/messages/${enc(messageId)}`) },
      },
      ZAttempt,
    );
  }

  /** EXT: how many failed messages of the window a recover would re-send now. */
  previewRecover(webhookId: string, window: { since: string; until?: string }): Promise<TRecoverPreview> {
    return this.call(
      { operation: 'preview recover', method: 'GET', path: `/v1/webhooks/${enc(webhookId)}/recover`, query: { ...window }, idempotent: true, ext: this.webhookExt(webhookId) },
      ZRecoverPreview,
    );
  }

  /** EXT: re-sends the window's failed messages (202 with the run; the same run while an identical one is going). */
  recoverMessages(webhookId: string, window: { since: string; until?: string }): Promise<TRecoverRun> {
    return this.call(
      // Idempotent while a run is going (the service answers the same run), so safe to retry.
      { operation: 'recover messages', method: 'POST', path: `/v1/webhooks/${enc(webhookId)}/recover`, body: window, idempotent: true, ext: this.webhookExt(webhookId) },
      ZRecoverRun,
    );
  }

  /** EXT (Svix's replay-missing): how many messages of the window the webhook never got (made while it was disabled). */
  previewReplayMissing(webhookId: string, window: { since: string; until?: string }): Promise<TRecoverPreview> {
    return this.call(
      { operation: 'preview replay missing', method: 'GET', path: `/v1/webhooks/${enc(webhookId)}/replay-missing`, query: { ...window }, idempotent: true, ext: this.webhookExt(webhookId) },
      ZRecoverPreview,
    );
  }

  /** EXT: sends the window's messages the webhook never got, once each (202 with the run; the same run while an identical one is going). */
  replayMissing(webhookId: string, window: { since: string; until?: string }): Promise<TRecoverRun> {
    return this.call(
      { operation: 'replay missing', method: 'POST', path: `/v1/webhooks/${enc(webhookId)}/replay-missing`, body: window, idempotent: true, ext: this.webhookExt(webhookId) },
      ZRecoverRun,
    );
  }

  /** EXT: a replay-missing run and its progress. */
  getReplayMissingRun(webhookId: string, runId: string): Promise<TRecoverRun> {
    return this.call(
      { operation: 'get replay-missing run', method: 'GET', path: `/v1/webhooks/${enc(webhookId)}/replay-missing/${enc(runId)}`, idempotent: true, ext: this.webhookExt(webhookId) },
      ZRecoverRun,
    );
  }

  /** EXT: a recover run and its progress. */
  getRecoverRun(webhookId: string, runId: string): Promise<TRecoverRun> {
    return this.call(
      { operation: 'get recover run', method: 'GET', path: `/v1/webhooks/${enc(webhookId)}/recover/${enc(runId)}`, idempotent: true, ext: this.webhookExt(webhookId) },
      ZRecoverRun,
    );
  }

  /** EXT: how many messages of the window wait for a retry (the preview of a retry now). */
  previewRetryPending(webhookId: string, window: { since: string; until?: string }): Promise<TRetryPendingPreview> {
    return this.call(
      { operation: 'preview retry now', method: 'GET', path: `/v1/webhooks/${enc(webhookId)}/retry-pending`, query: { ...window }, idempotent: true, ext: this.webhookExt(webhookId) },
      ZRetryPendingPreview,
    );
  }

  /** EXT: attempts now the window's messages waiting for a retry; their schedules resume after. */
  retryPendingNow(webhookId: string, window: { since: string; until?: string }): Promise<TRetryPendingResult> {
    return this.call(
      // Not retried on a lost answer: each call advances the schedules of what it makes due.
      { operation: 'retry now', method: 'POST', path: `/v1/webhooks/${enc(webhookId)}/retry-pending`, body: window, ext: this.webhookExt(webhookId) },
      ZRetryPendingResult,
    );
  }
}
