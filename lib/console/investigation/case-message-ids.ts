import 'server-only';
import { isUnsupported, type ConnectApi } from '@/lib/console/connect-api';
import { messageIdsMentioning } from '../receivers/receipts-by-message';
import type { TCase } from './case-types';
import { notFound } from './message-across-webhooks';
import { tagFor } from './search-query';

// Which messages a case is about: the ids its term names, at most MAX_MESSAGES (the newest).

const MAX_MESSAGES = 10;
const NO_SEARCH = 'This service offers no message search (an extension)';

/** The message ids a term names: the service's tag search (EXT) first, then the receivers' store. */
async function messageIdsFor(api: ConnectApi, kind: TCase['kind'], q: string, notes: string[]): Promise<string[]> {
  if (kind === 'message-id') return [q];
  if (kind === 'event-id') {
    try {
      return [(await api.get('/v1/messages/{id}', { params: { path: { id: q } } })).id];
    } catch (err) {
      if (notFound(err)) notes.push(`The service has no message with the event id ${q} for this account.`);
      else if (isUnsupported(err)) notes.push('This service cannot look messages up by event id (an extension it does not offer).');
      else throw err;
      return [];
    }
  }
  const ids: string[] = [];
  const tag = tagFor(kind, q);
  if (tag) {
    try {
      const page = await api.get('/v1/messages', { params: { query: { tag, pageLimit: MAX_MESSAGES + 1 } } });
      ids.push(...page.results.map((m) => m.id));
    } catch (err) {
      if (!isUnsupported(err)) throw err;
      notes.push(`${NO_SEARCH}: only what reached this console’s receivers was searched.`);
    }
  }
  // The receivers' store is searched when the service cannot be (no tag search, or free text, or
  // words that are no donor's name): a scan of every stored body, so not on every poll of a case
  // the service can answer.
  const freeText = kind === 'unknown' || (kind === 'donor-name' && ids.length === 0);
  if (q.length >= 4 && (freeText || notes.some((n) => n.startsWith(NO_SEARCH)))) ids.push(...(await messageIdsMentioning(q, MAX_MESSAGES + 1)));
  return [...new Set(ids)];
}

/** The ids of messageIdsFor, cut to the newest MAX_MESSAGES (and a note saying so). */
export async function caseMessageIds(api: ConnectApi, kind: TCase['kind'], q: string, notes: string[]): Promise<string[]> {
  const ids = await messageIdsFor(api, kind, q, notes);
  if (ids.length <= MAX_MESSAGES) return ids;
  notes.push(`More than ${MAX_MESSAGES} messages match; showing the newest ${MAX_MESSAGES}. Search by tracking id or message id to narrow it.`);
  return ids.slice(0, MAX_MESSAGES);
}
