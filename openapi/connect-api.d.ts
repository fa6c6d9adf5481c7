export interface paths {
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The public keys that verify access tokens */
        get: operations["getJwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange client credentials for an access token
         * @description OAuth 2.0 client credentials (RFC 6749 §4.4). Errors in the RFC 6749 §5.2 shape: `invalid_request` (400), `invalid_client` (401), `unsupported_grant_type` (400), `access_denied` for another audience (403).
         */
        post: operations["exchangeToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create (or get) the account's Connect for a nonprofit
         * @description One Connect per nonprofit per account: 201 with the existing one on a repeat. The API key is only in Get Connect.
         */
        post: operations["createConnect"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a Connect with its API key */
        get: operations["getConnect"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/erasures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase one donor's data
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     Replaces every field that carries the donor — the grants' names, e-mail, phone, note and metadata, their messages' payloads and donor:/name: tags, those messages' attempts' response bodies — with a tombstone `erased:<SHA-256 of what was there>` (a payload becomes `{"erased": {at, sha256}}`). Ids, amounts, statuses and times stay, so deliveries still reconcile. Their emptied answers say `responsePurged.reason: erasure`; a delivery still waiting for a retry ends `failed` with `retriesStopped: {reason: donor_erased, at}`. Idempotent: a second request finds the same grants and messages and erases nothing more.
         */
        post: operations["eraseDonor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/funds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the funds a grant may come from
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        get: operations["listFunds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a Connect's grants */
        get: operations["listGrants"];
        put?: never;
        /**
         * Create a grant
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     Emits `grant.succeeded`. The same code path as the donor Connect page.
         */
        post: operations["createGrant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/grants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a grant
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     The token alone is enough (the public SDK's `grants.get`): a grant of the token's account. With an API key, also of that Connect.
         */
        get: operations["getGrant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/grants/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream a range's grants with their deliveries (NDJSON)
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     Every grant of the account made in [`after`, `before`) (at most 31 days; `nonprofit`: one nonprofit, by id or EIN), oldest first, one JSON object a line: the grant with its nonprofit and donor, its `grant.succeeded` message, and that message's delivery to each webhook it was queued for. Read 1000 at a time, each page only once the reader has taken the one before. A failure part-way cuts the connection. What the console's daily reconciliation reads.
         */
        get: operations["streamGrantDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's messages
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     Every message, whether or not a webhook was subscribed; `tag` finds a grant's (`grant:{id}`, `tracking:{trackingId}`, `donor:{email}`, `name:{first last}` in lower case, `connect:{cid}`). Payload search: `payloadPath` + `payloadEquals` finds messages whose payload holds that JSON value at that dotted path (`data.amount` = `15000`, `data.fund.id` = `"fidelity-charitable"`, compared as JSON), `payloadText` those whose strings and numbers hold these words in this order (any case), within one value or across a grant's `data.firstName` and `data.lastName` read as one name; either needs `after`, at most 31 days before `before` (or now), and each result then carries an `excerpt`. A payload search runs newest first within a time budget (`SEARCH_BUDGET_MS`): when it runs out before `after`, the page says `partial: true` and `searchedUntil`, and `before=<searchedUntil>` goes on from there. `withWebhooks=true`: each result lists the webhooks it was queued for (`webhookIds`), without a call per message.
         */
        get: operations["listAccountMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a message by msg_ or evt_ id, with its deliveries
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     `withAttempts=true`: each delivery with all its attempts and its newest attempt's response, in two queries — what a case reads, without a call per webhook.
         */
        get: operations["getAccountMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/nonprofit/{ein}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a nonprofit by EIN */
        get: operations["getNonprofit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/nonprofits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List and search the registered nonprofits
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     Every registered nonprofit (newest first), each with the calling account's Connect for it or null.
         */
        get: operations["listNonprofits"];
        put?: never;
        /**
         * Register a nonprofit
         * @description 201 on first creation and when the EIN is already registered (then the existing record, unchanged). `name` is an extension; `preferredName` and `website` are the public SDK's.
         */
        post: operations["createNonprofit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This account's retention
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     How long the service keeps this account's message payloads and messages: the values in effect, the account's own, and the deployment's defaults. The purge keeps the skeleton: a payload becomes `{"purged": {at, retention, size, sha256}}`, an attempt's response body is emptied (`responsePurged`); after the message retention the message, its deliveries and attempts go. An unresolved delivery keeps its bodies (up to the deployment's hold).
         */
        get: operations["getRetention"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change this account's retention
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     Sets either value for this account (a field left out stays as it is; null returns it to the default); the purge applies it from its next pass. A bad duration, or payloads that would outlive their messages, is a 400 naming the field, and nothing changes. The purge keeps the skeleton: a payload becomes `{"purged": {at, retention, size, sha256}}`, an attempt's response body is emptied (`responsePurged`); after the message retention the message, its deliveries and attempts go. An unresolved delivery keeps its bodies (up to the deployment's hold).
         */
        patch: operations["updateRetention"];
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's webhooks
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Subscribe an endpoint
         * @description `secret` and `metadata` are extensions.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change a webhook
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     `paused: true` holds its deliveries (they queue, none is sent); `paused: false` resumes it and sends the backlog, oldest first.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/v1/webhooks/{id}/attempts/{attemptId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an attempt by its id alone
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        get: operations["getWebhookAttempt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a webhook's messages
         * @description Filters `status`, `eventType`, `before`, `after`, `withContent` (each message with its payload) and `withAttempts` (each with all its attempts, in the same query for the page: what an export reads) are extensions.
         */
        get: operations["listMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/messages/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a message with its payload */
        get: operations["getMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/messages/{messageId}/attempts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a message's attempts */
        get: operations["listAttempts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/messages/{messageId}/attempts/{attemptId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an attempt with its response */
        get: operations["getAttempt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/messages/{messageId}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resend a message now
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        post: operations["resendMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/messages/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream a webhook's messages with their attempts (NDJSON)
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     Every message of the webhook that the filters (`status`, `eventType`, `before`, `after`, as the list has them) keep, newest first, one JSON object a line: the message with its payload, every attempt (oldest first, without response bodies) and its newest attempt with its response body. Read from the store 500 at a time, each page only when the reader has taken the one before, so a slow reader slows the reading and a large webhook costs no more memory than a page. The stream ends after the last line; a failure part-way cuts the connection (never a short body that looks whole).
         */
        get: operations["streamMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How many failed messages a recover of the window would re-send
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        get: operations["previewRecover"];
        put?: never;
        /**
         * Re-send the window's failed messages
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     Re-sends once each (a `manual` attempt, outside the retry schedule) every message of the window whose delivery to this webhook ended `failed` and whose payload is still there (one a donor erasure or retention took has nothing to re-send). An identical request while the run still has messages to send answers the same run. A disabled webhook → 409.
         */
        post: operations["recoverMessages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/recover/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A recover run and its progress
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        get: operations["getRecoverRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/replay-missing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How many messages of the window the webhook never got
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        get: operations["previewReplayMissing"];
        put?: never;
        /**
         * Send the messages of the window the webhook never got
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     Sends, once each (a `manual` attempt, outside the retry schedule), every message of the account made in the window (`since` ≤ creation < `until` or now) that this webhook never got: of an event type it subscribes to, made once it existed, with no delivery to it (it was disabled then), not a test event, not an operational event about this webhook, its payload still kept. Afterwards each has a delivery, so a second preview counts 0. An identical request while the run still has messages to send answers the same run. A disabled webhook → 409.
         */
        post: operations["replayMissing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/replay-missing/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A replay-missing run and its progress
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        get: operations["getReplayMissingRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/retry-pending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How many messages of the window wait for a retry
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        get: operations["previewRetryPending"];
        put?: never;
        /**
         * Attempt now the window's messages waiting for a retry
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     Attempts now every message of the window (by creation time) whose delivery to this webhook failed at least once and waits for its next scheduled retry. Each attempt is the next step of the message's retry schedule: a success delivers it; a failure counts as that attempt and the schedule resumes from there (the next retry after its delay, or `failed` when none is left). A recover run's pending re-sends and first attempts are not included. A disabled webhook → 409.
         */
        post: operations["retryPendingNow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the signing secret
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        get: operations["getWebhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     The old secret keeps signing beside the new one for 24 h.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Delivery statistics over a window, with buckets for a chart
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        get: operations["getWebhookStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description A real message for this webhook alone, carrying the example payload. A disabled webhook → 409.
         */
        post: operations["sendTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's failed or retrying messages across its webhooks, newest first
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     `state=failed`: the service gave up on the (message, webhook); `state=retrying`: still pending after two or more attempts. One row per (message, webhook), ordered by the message time, then message id, then webhook id (all descending); served by an index, so a page costs the same at any volume.
         */
        get: operations["listTroubledMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/messages/counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Each webhook's failed and retrying messages, counted exactly up to a cap
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         *
         *     Webhooks with neither are left out. A count above `cap` (default 1000, at most 10000) reads as `cap` with `capped: true`.
         */
        get: operations["countTroubledMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every webhook's delivery statistics in one call, a page of webhooks at a time
         * @description **Extension (EXT)**: not part of the seed API; a console feature-detects it (404/405 elsewhere).
         */
        get: operations["listWebhookStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "grant.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The grant.succeeded event
         * @description Signed per Standard Webhooks. Success is a 2xx within 15 s; anything else (3xx included) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (±20 %), honouring Retry-After on 429/503; 410 disables the webhook.
         */
        post: operations["event_grant_succeeded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.attempt.exhausted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The message.attempt.exhausted event
         * @description Signed per Standard Webhooks. Success is a 2xx within 15 s; anything else (3xx included) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (±20 %), honouring Retry-After on 429/503; 410 disables the webhook.
         */
        post: operations["event_message_attempt_exhausted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.disabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The webhook.disabled event
         * @description Signed per Standard Webhooks. Success is a 2xx within 15 s; anything else (3xx included) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (±20 %), honouring Retry-After on 429/503; 410 disables the webhook.
         */
        post: operations["event_webhook_disabled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.failing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The webhook.failing event
         * @description Signed per Standard Webhooks. Success is a 2xx within 15 s; anything else (3xx included) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (±20 %), honouring Retry-After on 429/503; 410 disables the webhook.
         */
        post: operations["event_webhook_failing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.recovered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The webhook.recovered event
         * @description Signed per Standard Webhooks. Success is a 2xx within 15 s; anything else (3xx included) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (±20 %), honouring Retry-After on 429/503; 410 disables the webhook.
         */
        post: operations["event_webhook_recovered"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        AccessToken: {
            /** @description An RS256 JWT (`kid` in /.well-known/jwks.json). */
            access_token: string;
            /** @example 86400 */
            expires_in: number;
            /** @example create:nonprofits read:nonprofits create:connects read:connects create:grants read:grants */
            scope: string;
            /** @constant */
            token_type: "Bearer";
        };
        AccountMessage: {
            eventId: string;
            /** @enum {string} */
            eventType: "grant.succeeded" | "webhook.failing" | "webhook.disabled" | "message.attempt.exhausted" | "webhook.recovered";
            /** @description With a payload filter: the part of the payload around the match (the object holding the key, or the words). */
            excerpt?: string;
            id: string;
            tags: string[];
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            timestamp: string;
            /** @description With `withWebhooks=true`: the webhooks the message was queued for, by id (none when nothing was subscribed). */
            webhookIds?: string[];
        };
        AccountMessageDetail: {
            /** @description None when no webhook was subscribed. */
            deliveries: {
                attemptCount: number;
                /** @description Only with `withAttempts=true`: every attempt to this webhook, oldest first, without response bodies. */
                attempts?: components["schemas"]["Attempt"][];
                /** @description The newest attempt; with `withAttempts=true`, with its response body. */
                lastAttempt: (components["schemas"]["Attempt"] | components["schemas"]["AttemptWithResponse"]) | null;
                nextAttempt: string | null;
                /** @description EXT: the recover or replay-missing run that last queued this delivery (`rcvr_…`; GET …/recover/{runId} or …/replay-missing/{runId} by its kind); null when only the schedule sent it. */
                recoverRunId: string | null;
                retriesStopped: components["schemas"]["RetriesStopped"];
                /** @enum {string} */
                status: "pending" | "sending" | "success" | "failed";
                webhookId: string;
            }[];
            eventId: string;
            /** @enum {string} */
            eventType: "grant.succeeded" | "webhook.failing" | "webhook.disabled" | "message.attempt.exhausted" | "webhook.recovered";
            /** @description With a payload filter: the part of the payload around the match (the object holding the key, or the words). */
            excerpt?: string;
            id: string;
            /** @description The event exactly as delivered. Once retention purged it (MESSAGE_PAYLOAD_RETENTION), its tombstone `{"purged": {at, retention, size, sha256}}`; once a donor erasure replaced it (POST /v1/erasures), `{"erased": {at, sha256}}`. */
            payload: {
                [key: string]: unknown;
            };
            tags: string[];
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            timestamp: string;
            /** @description With `withWebhooks=true`: the webhooks the message was queued for, by id (none when nothing was subscribed). */
            webhookIds?: string[];
        };
        /** @description One page of the account's messages, newest first. */
        AccountMessagePage: {
            /** @description Pass as `pageToken` for the next page; absent on the last page. */
            nextPageToken?: string;
            /**
             * @description With a payload filter: the search stopped after its time budget (`SEARCH_BUDGET_MS`, 1 s by default) before reaching `after`. `results` hold every match from `searchedUntil` on (at most `pageLimit`), none older.
             * @constant
             */
            partial?: true;
            results: components["schemas"]["AccountMessage"][];
            /**
             * Format: date-time
             * @description With `partial`: the instant the search looked back to. The same request with `before` set to it goes on from there, without repeating or missing a message.
             * @example 2026-11-22T10:15:30.123Z
             */
            searchedUntil?: string;
        };
        AccountRetention: {
            /** @description The deployment's defaults (its MESSAGE_PAYLOAD_RETENTION and MESSAGE_RETENTION). */
            defaults: {
                /** @example 90d */
                messagePayloadRetention: string;
                /** @example 365d */
                messageRetention: string;
            };
            /** @description What the service's purge applies to this account's messages now. */
            effective: {
                /** @example 90d */
                messagePayloadRetention: string;
                /** @example 365d */
                messageRetention: string;
            };
            /** @description The account's own values; null where the deployment's default applies. */
            overrides: {
                messagePayloadRetention: string | null;
                messageRetention: string | null;
            };
            /** @description The deployment's tables partitioned by time, which retention drops whole (GET only; absent from a service before partitions). */
            partitions?: components["schemas"]["PartitionStatus"][];
            /** @description When the account last changed its retention; null if it never did. */
            updatedAt: string | null;
        };
        /** @description A delivery attempt, without the response body. */
        Attempt: {
            id: string;
            /** @example 42 */
            responseDurationMs: number;
            /**
             * @description 0 when no response came (then `response` holds the error).
             * @example 200
             */
            responseStatusCode: number;
            /** @enum {string} */
            status: "success" | "failed";
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            timestamp: string;
            /** @enum {string} */
            triggerType: "scheduled" | "manual";
            url: string;
        };
        /** @description One page of a list, newest first. */
        AttemptPage: {
            /** @description Pass as `pageToken` for the next page; absent on the last page. */
            nextPageToken?: string;
            results: components["schemas"]["Attempt"][];
        };
        AttemptWithResponse: {
            id: string;
            /** @description The response body (cut at 20,000 bytes), or the network error; empty once purged. */
            response: string;
            /** @example 42 */
            responseDurationMs: number;
            /** @description EXT: when retention (MESSAGE_PAYLOAD_RETENTION) or a donor erasure emptied `response`, and which; null while it is kept. */
            responsePurged: {
                /**
                 * Format: date-time
                 * @example 2026-11-22T10:15:30.123Z
                 */
                at: string;
                /**
                 * @description `retention`: MESSAGE_PAYLOAD_RETENTION (or the account's own) emptied it; `erasure`: a donor erasure (POST /v1/erasures) did, at `at`.
                 * @enum {string}
                 */
                reason: "retention" | "erasure";
                /**
                 * @description The account's payload retention as it is set now (`90d`; GET /v1/retention).
                 * @example 90d
                 */
                retention: string;
                /** @description The purged body's SHA-256, hex. */
                sha256: string;
                /** @description The purged body's size in bytes. */
                size: number;
            } | null;
            /**
             * @description 0 when no response came (then `response` holds the error).
             * @example 200
             */
            responseStatusCode: number;
            /** @enum {string} */
            status: "success" | "failed";
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            timestamp: string;
            /** @enum {string} */
            triggerType: "scheduled" | "manual";
            url: string;
        };
        Connect: {
            active: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            createdAt: string;
            /** @description The CID: `test_` + a KSUID (the embedded service is a sandbox). */
            id: string;
            /** @description Free-form string labels the caller attached. */
            metadata: {
                [key: string]: string;
            };
            name: string;
            /** Format: uuid */
            nonprofitId: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            updatedAt: string;
        };
        ConnectWithKey: {
            active: boolean;
            /** @description Send it as `x-service-api-key` for the grant operations. */
            apiKey: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            createdAt: string;
            /** @description The CID: `test_` + a KSUID (the embedded service is a sandbox). */
            id: string;
            /** @description Free-form string labels the caller attached. */
            metadata: {
                [key: string]: string;
            };
            name: string;
            /** Format: uuid */
            nonprofitId: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            updatedAt: string;
        };
        /** @description EXT: name and metadata. An empty body is fine. */
        CreateConnect: {
            metadata?: {
                [key: string]: string;
            };
            name?: string;
        };
        CreateNonprofit: {
            ein: string;
            name?: string;
            preferredName?: string | null;
            user: {
                /** Format: email */
                email: string;
                firstName?: string;
                lastName?: string;
                phone?: string;
            };
            website?: string | null;
        };
        CreateWebhook: {
            /** @default  */
            description?: string;
            /** @default false */
            disabled?: boolean;
            eventTypes: ("grant.succeeded" | "webhook.failing" | "webhook.disabled" | "message.attempt.exhausted" | "webhook.recovered")[];
            metadata?: {
                [key: string]: string;
            };
            /** @default null */
            rateLimit?: number | null;
            secret?: string;
            url: string;
        };
        ErasureReport: {
            attempts: {
                /** @description Attempts whose response body was emptied. */
                erased: number;
            };
            dryRun: boolean;
            /** @description When this request erased something; null when it erased nothing (a dry run, or nothing left). */
            erasedAt: string | null;
            grants: {
                erased: number;
                found: number;
            };
            /** @description Every message of the donor, erased now or before: a receiver may erase what it stored of them. */
            messageIds: string[];
            messages: {
                erased: number;
                found: number;
            };
            subject: {
                /** @enum {string} */
                kind: "email" | "grantId";
                /** @description The SHA-256 (hex) of the lower-cased e-mail or the grant id: what to log instead of it. */
                sha256: string;
            };
        };
        ErasureRequest: {
            /**
             * @description true: count what would be erased, change nothing.
             * @default false
             */
            dryRun?: boolean;
            /** Format: email */
            email?: string;
            /** Format: uuid */
            grantId?: string;
        };
        Event_grant_succeeded: {
            data: components["schemas"]["Grant"];
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            timestamp: string;
            /** @constant */
            type: "grant.succeeded";
        };
        Event_message_attempt_exhausted: {
            data: components["schemas"]["OperationalEventData"];
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            timestamp: string;
            /** @constant */
            type: "message.attempt.exhausted";
        };
        Event_webhook_disabled: {
            data: components["schemas"]["OperationalEventData"];
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            timestamp: string;
            /** @constant */
            type: "webhook.disabled";
        };
        Event_webhook_failing: {
            data: components["schemas"]["WebhookFailingData"];
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            timestamp: string;
            /** @constant */
            type: "webhook.failing";
        };
        Event_webhook_recovered: {
            data: components["schemas"]["OperationalEventData"];
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            timestamp: string;
            /** @constant */
            type: "webhook.recovered";
        };
        FieldError: {
            message: string;
            path: string;
        };
        /** @description A donor-advised fund sponsor a grant may come from. */
        Fund: {
            /**
             * @description What a grant's `fundId` names.
             * @example fidelity-charitable
             */
            id: string;
            /** @example Fidelity Charitable */
            name: string;
        };
        /** @description One page of a list, newest first. */
        FundPage: {
            /** @description Pass as `pageToken` for the next page; absent on the last page. */
            nextPageToken?: string;
            results: components["schemas"]["Fund"][];
        };
        Grant: {
            /**
             * @description Integer cents.
             * @example 15000
             */
            amount: number;
            /**
             * @description The Connect (CID) the grant was given through.
             * @example test_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE
             */
            connectId: string;
            coveredFees: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            createdAt: string;
            /** @example jane.donor@example.org */
            email: string;
            /**
             * @description The processing fee in cents (2.9 %).
             * @example 435
             */
            feeAmount: number;
            /** @example Jane */
            firstName: string;
            /** @example fidelity-charitable */
            fundId: string;
            /** @example Fidelity Charitable */
            fundName: string;
            /** Format: uuid */
            id: string;
            /** @example Donor */
            lastName: string;
            /** @description Free-form string labels the caller attached. */
            metadata: {
                [key: string]: string;
            };
            /** Format: uuid */
            nonprofitId: string;
            /** @example For the reading room */
            note: string | null;
            /** @example 5555550123 */
            phone: string | null;
            /** @enum {string} */
            status: "Initiated" | "Completed" | "Canceled";
            /**
             * @description A short code a donor can read aloud.
             * @example GC-7KQ2M9
             */
            trackingId: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            updatedAt: string;
            /**
             * @description The Connect-flow session that created the grant: the donor's visit to `/connect/{cid}` (one per rendered form; a double-submitted form keeps it). A grant created through `POST /v1/grants` gets a session of its own (`wfs_` + KSUID), one per grant; grants created before this field existed carry `wfs_` + their id's hex digits.
             * @example wfs_2Q3sXQ5mHk1bW8nJ3cR7tYvLd0A
             */
            workflowSessionId: string;
        };
        /** @description One line of the grant delivery stream. */
        GrantDelivery: {
            /** @description Integer cents. */
            amount: number;
            connectId: string;
            /** @description Whether the donor added the fee on top (the nonprofit receives `amount` whole); else the fee comes out of `amount`. */
            coveredFees: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            createdAt: string;
            /** @description One per webhook the message was queued for (none subscribed: empty). */
            deliveries: {
                attemptCount: number;
                /** @description The newest attempt's response code (0: no response); null before the first. */
                lastResponseStatusCode: number | null;
                /** @enum {string} */
                status: "pending" | "sending" | "success" | "failed";
                webhookId: string;
            }[];
            donor: {
                email: string;
                firstName: string;
                lastName: string;
            };
            ein: string;
            /** @description The processing fee in cents, as the Grant carries it. */
            feeAmount: number;
            fundId: string;
            fundName: string;
            /** Format: uuid */
            grantId: string;
            /** @description The grant.succeeded message (`msg_…`), the webhook-id every webhook got. */
            messageId: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            messageTimestamp: string;
            /** Format: uuid */
            nonprofitId: string;
            /** @description The name it goes by (its preferred name, else its legal one). */
            nonprofitName: string;
            /**
             * @description The grant's status now, as the Grant carries it.
             * @enum {string}
             */
            status: "Initiated" | "Completed" | "Canceled";
            trackingId: string;
        };
        /** @description One page of a list, newest first. */
        GrantPage: {
            /** @description Pass as `pageToken` for the next page; absent on the last page. */
            nextPageToken?: string;
            results: components["schemas"]["Grant"][];
        };
        JsonWebKeySet: {
            keys: ({
                /** @constant */
                alg: "RS256";
                e: string;
                kid: string;
                /** @constant */
                kty: "RSA";
                n: string;
                /** @constant */
                use: "sig";
            } & {
                [key: string]: unknown;
            })[];
        };
        ListedMessage: {
            /** @example 1 */
            attemptCount: number;
            /** @description EXT: only with `withAttempts=true`: every attempt to this webhook, oldest first, without response bodies. */
            attempts?: components["schemas"]["Attempt"][];
            /** @description EXT: the event id. */
            eventId: string;
            /** @enum {string} */
            eventType: "grant.succeeded" | "webhook.failing" | "webhook.disabled" | "message.attempt.exhausted" | "webhook.recovered";
            id: string;
            /** @description EXT: the newest attempt to this webhook; null before the first. */
            lastAttempt: components["schemas"]["Attempt"] | null;
            nextAttempt: string | null;
            /** @description EXT: only with `withContent=true`. */
            payload?: {
                [key: string]: unknown;
            };
            /** @description EXT: the recover or replay-missing run that last queued this delivery (`rcvr_…`; GET …/recover/{runId} or …/replay-missing/{runId} by its kind); null when only the schedule sent it. */
            recoverRunId: string | null;
            retriesStopped: components["schemas"]["RetriesStopped"];
            /** @enum {string} */
            status: "pending" | "sending" | "success" | "failed";
            /** @description EXT: what the message is found by (GET /v1/messages?tag=). */
            tags: string[];
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            timestamp: string;
        };
        ListedNonprofit: {
            /** @description The calling account's Connect for this nonprofit; null when it has none. */
            connect: {
                active: boolean;
                /**
                 * Format: date-time
                 * @example 2026-11-22T10:15:30.123Z
                 */
                createdAt: string;
                /** @description The CID. */
                id: string;
                name: string;
            } | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            createdAt: string;
            ein: string;
            /** Format: uuid */
            id: string;
            /** @description Defaults to `Nonprofit {ein}`. */
            name: string;
            /** @description The name it goes by; null when unset. */
            preferredName: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            updatedAt: string;
            /** @description An absolute https URL; null when unset. */
            website: string | null;
        };
        /** @description One page of a list, newest first. */
        MessagePage: {
            /** @description Pass as `pageToken` for the next page; absent on the last page. */
            nextPageToken?: string;
            results: components["schemas"]["ListedMessage"][];
        };
        MessageWithPayload: {
            /** @example 1 */
            attemptCount: number;
            /** @description EXT: the event id. */
            eventId: string;
            /** @enum {string} */
            eventType: "grant.succeeded" | "webhook.failing" | "webhook.disabled" | "message.attempt.exhausted" | "webhook.recovered";
            id: string;
            /** @description EXT: the newest attempt to this webhook; null before the first. */
            lastAttempt: components["schemas"]["Attempt"] | null;
            nextAttempt: string | null;
            /** @description The event exactly as delivered: `{type, timestamp, data}` (see `webhooks`). EXT: once retention purged it, its tombstone `{"purged": {at, retention, size, sha256}}`; once a donor erasure replaced it, `{"erased": {at, sha256}}`. */
            payload: {
                [key: string]: unknown;
            };
            /** @description EXT: the recover or replay-missing run that last queued this delivery (`rcvr_…`; GET …/recover/{runId} or …/replay-missing/{runId} by its kind); null when only the schedule sent it. */
            recoverRunId: string | null;
            retriesStopped: components["schemas"]["RetriesStopped"];
            /** @enum {string} */
            status: "pending" | "sending" | "success" | "failed";
            /** @description EXT: what the message is found by (GET /v1/messages?tag=). */
            tags: string[];
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            timestamp: string;
        };
        /** @description A registered nonprofit. The contact user is stored for support, never returned. */
        Nonprofit: {
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            createdAt: string;
            ein: string;
            /** Format: uuid */
            id: string;
            /** @description Defaults to `Nonprofit {ein}`. */
            name: string;
            /** @description The name it goes by; null when unset. */
            preferredName: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            updatedAt: string;
            /** @description An absolute https URL; null when unset. */
            website: string | null;
        };
        /** @description One page of a list, newest first. */
        NonprofitPage: {
            /** @description Pass as `pageToken` for the next page; absent on the last page. */
            nextPageToken?: string;
            results: components["schemas"]["ListedNonprofit"][];
        };
        /** @description An OAuth 2.0 error response (RFC 6749 §5.2). */
        OAuthError: {
            /** @enum {string} */
            error: "invalid_request" | "invalid_client" | "unsupported_grant_type" | "access_denied" | "temporarily_unavailable";
            error_description: string;
        };
        OperationalEventData: {
            attemptCount: number | null;
            disabledAt: string | null;
            failingSince: string | null;
            lastAttemptAt: string | null;
            lastAttemptId: string | null;
            /** @description The last failure in one line (status and the start of the answer, or the network error), at most 500 characters. */
            lastError: string | null;
            lastResponseStatusCode: number | null;
            messageEventType: string | null;
            messageId: string | null;
            /** @description webhook.disabled: why. */
            reason: string | null;
            recoveredAt: string | null;
            /**
             * @description A delivery attempt caused it, or a change through the API.
             * @enum {string}
             */
            trigger: "delivery" | "api";
            url: string;
            /** @description The webhook the event is about (never the one it is delivered to). */
            webhookId: string;
        };
        PartitionStatus: {
            /** @description Their total size with indexes, in bytes. */
            bytes: number;
            /** @description How many partitions it has now, those made ahead included. */
            count: number;
            /** @description Partitions past the retention kept because they hold what must stay; their other rows leave one by one. The counts are the calling account's: both 0, it is kept for another account's messages. */
            held: {
                /** @description This account's messages in it that it keeps longer (its own messageRetention). */
                accountKept: number;
                partition: string;
                /** @description This account's messages in it with a delivery still pending or sending: kept until it resolves. */
                pending: number;
                /** @description When the last of those is past its retention; null while a delivery waits. */
                until: string | null;
            }[];
            /** @description The newest partition's end (partitions are made a week ahead). */
            newestTo: string | null;
            nextDrop: {
                /**
                 * Format: date-time
                 * @description When its range is past the retention: the purge's next pass after drops it.
                 * @example 2026-11-22T10:15:30.123Z
                 */
                at: string;
                partition: string;
            } | null;
            /** @description The oldest partition's start; null: from the beginning (an upgraded store's first partition). */
            oldestFrom: string | null;
            /** @description The deployment's MESSAGE_RETENTION in ms, past which a partition's whole range leaves by a drop. */
            retention: number;
            /** @example service.attempts */
            table: string;
        };
        /** @description RFC 9457 problem details (Content-Type: application/problem+json). */
        Problem: {
            /** @description One human sentence saying what is wrong. */
            detail: string;
            /** @description One entry per invalid field (validation errors only). */
            errors?: components["schemas"]["FieldError"][];
            status: number;
            /** @example Bad Request */
            title: string;
            /** @constant */
            type: "about:blank";
        };
        RecoverPreview: {
            messages: number;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            since: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            until: string;
        };
        RecoverRun: {
            /** @description EXT: the API client whose token started the run; null for runs started before it was recorded. */
            clientId: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            createdAt: string;
            /** @description Re-sent and failed again. */
            failed: number;
            finishedAt: string | null;
            id: string;
            /**
             * @description recover: failed messages re-sent; replay-missing: messages the webhook never got, sent.
             * @enum {string}
             */
            kind: "recover" | "replay-missing";
            /**
             * @description How many messages the run queued (failed ones re-queued, or missing ones).
             * @example 12
             */
            messages: number;
            /** @description Still to be re-sent. */
            remaining: number;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            since: string;
            /** @enum {string} */
            status: "running" | "done";
            /** @description Re-sent and answered 2xx. */
            succeeded: number;
            /**
             * Format: date-time
             * @description The end asked for, or the time the run started.
             * @example 2026-11-22T10:15:30.123Z
             */
            until: string;
            webhookId: string;
        };
        RecoverWindow: {
            /**
             * Format: date-time
             * @description Start of the window (inclusive): not in the future, at most 14 days before `until` (or now).
             */
            since: string;
            /**
             * Format: date-time
             * @description End of the window (exclusive), after `since`; now when left out.
             */
            until?: string;
        };
        ReplayMissingPreview: {
            /**
             * @description How many messages a replay of the window would send now.
             * @example 37
             */
            messages: number;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            since: string;
            /**
             * Format: date-time
             * @description The end asked for, or now.
             * @example 2026-11-22T10:15:30.123Z
             */
            until: string;
        };
        RetentionPatch: {
            /**
             * @description How long this account's message payloads and attempts' response bodies are kept (`90d`, `12h`, `30m`, `45s`; 1s to 3650d); null: the deployment's default.
             * @example 30d
             */
            messagePayloadRetention?: string | null;
            /**
             * @description How long this account's messages, deliveries and attempts are kept; null: the deployment's default. Payloads are kept no longer than their messages.
             * @example 365d
             */
            messageRetention?: string | null;
        };
        /** @description EXT: set when this delivery ended `failed` before its retry schedule ran out because its payload is gone, and why; null otherwise (a `failed` delivery without it used every attempt, or its webhook was disabled). */
        RetriesStopped: {
            /**
             * Format: date-time
             * @description When its retries stopped.
             * @example 2026-11-22T10:15:30.123Z
             */
            at: string;
            /**
             * @description `donor_erased`: a donor erasure (POST /v1/erasures) replaced the payload it would send; `payload_purged`: retention purged it.
             * @enum {string}
             */
            reason: "donor_erased" | "payload_purged";
        } | null;
        RetryPendingPreview: {
            /**
             * @description Messages of the window waiting for a retry to this webhook.
             * @example 4
             */
            messages: number;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            since: string;
            /**
             * Format: date-time
             * @description The end asked for, or now.
             * @example 2026-11-22T10:15:30.123Z
             */
            until: string;
        };
        RetryPendingResult: {
            /**
             * Format: date-time
             * @description When they were made due: each is attempted from then on.
             * @example 2026-11-22T10:15:30.123Z
             */
            dueAt: string;
            /**
             * @description How many were made due now.
             * @example 4
             */
            messages: number;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            since: string;
            /**
             * Format: date-time
             * @description The end asked for, or now.
             * @example 2026-11-22T10:15:30.123Z
             */
            until: string;
        };
        /** @description One line of the message stream. */
        StreamedMessage: {
            /** @example 1 */
            attemptCount: number;
            /** @description Every attempt to this webhook, oldest first, without response bodies. */
            attempts: components["schemas"]["Attempt"][];
            /** @description EXT: the event id. */
            eventId: string;
            /** @enum {string} */
            eventType: "grant.succeeded" | "webhook.failing" | "webhook.disabled" | "message.attempt.exhausted" | "webhook.recovered";
            id: string;
            /** @description The newest attempt with its response body; null before the first. */
            lastAttempt: components["schemas"]["AttemptWithResponse"] | null;
            nextAttempt: string | null;
            /** @description The event exactly as delivered: `{type, timestamp, data}` (see `webhooks`). EXT: once retention purged it, its tombstone `{"purged": {at, retention, size, sha256}}`; once a donor erasure replaced it, `{"erased": {at, sha256}}`. */
            payload: {
                [key: string]: unknown;
            };
            /** @description EXT: the recover or replay-missing run that last queued this delivery (`rcvr_…`; GET …/recover/{runId} or …/replay-missing/{runId} by its kind); null when only the schedule sent it. */
            recoverRunId: string | null;
            retriesStopped: components["schemas"]["RetriesStopped"];
            /** @enum {string} */
            status: "pending" | "sending" | "success" | "failed";
            /** @description EXT: what the message is found by (GET /v1/messages?tag=). */
            tags: string[];
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            timestamp: string;
        };
        TestEvent: {
            /** @enum {string} */
            eventType?: "grant.succeeded" | "webhook.failing" | "webhook.disabled" | "message.attempt.exhausted" | "webhook.recovered";
        };
        /** @description JSON or form-encoded. The client may instead send its credentials as HTTP Basic. */
        TokenRequest: {
            /**
             * @description The API audience; another one → 403 access_denied.
             * @example https://api.giving-connect.test
             */
            audience: string;
            client_id: string;
            client_secret: string;
            /** @constant */
            grant_type: "client_credentials";
        };
        TroubledCounts: {
            cap: number;
            results: {
                failed: {
                    /** @description There are more than `cap`: `count` is the cap. */
                    capped: boolean;
                    count: number;
                };
                retrying: {
                    /** @description There are more than `cap`: `count` is the cap. */
                    capped: boolean;
                    count: number;
                };
                webhookId: string;
            }[];
        };
        TroubledMessage: {
            /** @example 1 */
            attemptCount: number;
            /** @description EXT: the event id. */
            eventId: string;
            /** @enum {string} */
            eventType: "grant.succeeded" | "webhook.failing" | "webhook.disabled" | "message.attempt.exhausted" | "webhook.recovered";
            id: string;
            /** @description The newest attempt; with `withContent=true`, with its response body. */
            lastAttempt: (components["schemas"]["Attempt"] | components["schemas"]["AttemptWithResponse"]) | null;
            nextAttempt: string | null;
            /** @description Only with `withContent=true`. */
            payload?: {
                [key: string]: unknown;
            };
            /** @description EXT: the recover or replay-missing run that last queued this delivery (`rcvr_…`; GET …/recover/{runId} or …/replay-missing/{runId} by its kind); null when only the schedule sent it. */
            recoverRunId: string | null;
            retriesStopped: components["schemas"]["RetriesStopped"];
            /** @enum {string} */
            status: "pending" | "sending" | "success" | "failed";
            /** @description EXT: what the message is found by (GET /v1/messages?tag=). */
            tags: string[];
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            timestamp: string;
            webhookId: string;
        };
        /** @description One page of a list, newest first. */
        TroubledMessagePage: {
            /** @description Pass as `pageToken` for the next page; absent on the last page. */
            nextPageToken?: string;
            results: components["schemas"]["TroubledMessage"][];
        };
        UpdateWebhook: {
            description?: string;
            disabled?: boolean;
            eventTypes?: ("grant.succeeded" | "webhook.failing" | "webhook.disabled" | "message.attempt.exhausted" | "webhook.recovered")[];
            metadata?: {
                [key: string]: string;
            };
            paused?: boolean;
            rateLimit?: number | null;
            url?: string;
        };
        Webhook: {
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            createdAt: string;
            description: string;
            disabled: boolean;
            /** @description EXT: when it was disabled; null while enabled. */
            disabledAt: string | null;
            /** @description EXT: why the webhook was disabled; null while enabled. */
            disabledReason: string | null;
            /** @description EXT: `failingSince` + DELIVERY_DISABLE_AFTER_MS: when the webhook is disabled unless a delivery succeeds first — at that time, whether or not an attempt is due (the failing sweep, within 1/200 of the threshold). Null when not failing, disabled, or paused. */
            disablesAt: string | null;
            eventTypes: ("grant.succeeded" | "webhook.failing" | "webhook.disabled" | "message.attempt.exhausted" | "webhook.recovered")[];
            /** @description EXT: start of the current failing stretch (failures with no success since); kept while disabled (the stretch that disabled it); null when not failing. */
            failingSince: string | null;
            id: string;
            /** @description Free-form string labels the caller attached. */
            metadata: {
                [key: string]: string;
            };
            /** @description EXT: paused (PATCH `paused`): its messages queue and none is sent until it is resumed; its failing stretch's clock stands still, so a pause never disables it. Always sent here; a service without pause leaves it out. */
            paused?: boolean;
            /** @description EXT: when it was paused; null when not paused. */
            pausedAt: string | null;
            /**
             * @description EXT: at most this many deliveries a second, across every worker (the rest wait, oldest first); null: no cap.
             * @example 20
             */
            rateLimit: number | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            updatedAt: string;
            /** @example https://receiver.example.org/webhooks */
            url: string;
        };
        WebhookFailingData: {
            /**
             * Format: date-time
             * @description `failingSince` + DELIVERY_DISABLE_AFTER_MS: when the webhook is disabled, whether or not an attempt is due then, unless one succeeds first.
             * @example 2026-11-22T10:15:30.123Z
             */
            disablesAt: string;
            /**
             * Format: date-time
             * @description Start of the failing stretch: its first failure, with no success since.
             * @example 2026-11-22T10:15:30.123Z
             */
            failingSince: string;
            /** @description Its newest failure in one line (status and the start of the answer, or the network error), at most 500 characters. */
            lastError: string | null;
            /** @description The share of the disable threshold the stretch has passed; each is sent once per stretch. */
            thresholdPercent: 50 | 75 | 90;
            url: string;
            /**
             * @description Its messages waiting for an attempt (pending, or being sent).
             * @example 41
             */
            waitingMessages: number;
            /** @description The failing webhook (never the one the event is delivered to). */
            webhookId: string;
        };
        /** @description One page of a list, newest first. */
        WebhookPage: {
            /** @description Pass as `pageToken` for the next page; absent on the last page. */
            nextPageToken?: string;
            results: components["schemas"]["Webhook"][];
        };
        WebhookSecret: {
            key: string;
        };
        WebhookStats: {
            attempts: number;
            backlog: {
                nextAttemptAt: string | null;
                oldestPendingAgeSeconds: number | null;
                oldestPendingAt: string | null;
                pending: number;
                sending: number;
            };
            /** @description Epoch-aligned UTC buckets covering the window (which starts at the first one’s start); the last is partial; their counts add up to the totals. */
            buckets: {
                attempts: number;
                /**
                 * Format: date-time
                 * @example 2026-11-22T10:15:30.123Z
                 */
                end: string;
                failures: number;
                /** @description Milliseconds; null without attempts. */
                p50: number | null;
                /** @description Milliseconds; null without attempts. */
                p95: number | null;
                /** @description Milliseconds; null without attempts. */
                p99: number | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T10:15:30.123Z
                 */
                start: string;
                successes: number;
            }[];
            bucketSeconds: number;
            disabled: boolean;
            disabledAt: string | null;
            disabledReason: string | null;
            failingSince: string | null;
            failures: number;
            /** @description Attempts since the last success (all failed); 0 when the newest succeeded. */
            failureStreak: number;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            from: string;
            lastAttemptAt: string | null;
            /** @description The newest failed attempt in the window; null when none failed. */
            lastFailureAt: string | null;
            lastSuccessAt: string | null;
            /** @description The window had a failed attempt and every attempt since succeeded: the first of those, and how many there were (counted up to 100). Null otherwise. */
            recovery: {
                attempts: number;
                /**
                 * Format: date-time
                 * @example 2026-11-22T10:15:30.123Z
                 */
                since: string;
            } | null;
            /** @description The window's attempts, failures and timeouts included; from latency buckets 25 % wide, each reported at its geometric middle: within 12 % of the exact value. */
            responseTimeMs: {
                /** @description Milliseconds; null without attempts. */
                p50: number | null;
                /** @description Milliseconds; null without attempts. */
                p95: number | null;
                /** @description Milliseconds; null without attempts. */
                p99: number | null;
            };
            successes: number;
            /** @description successes / attempts over the window; null without attempts. */
            successRate: number | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.123Z
             */
            until: string;
            webhookId: string;
            /** @enum {string} */
            window: "1h" | "24h" | "7d";
        };
        /** @description One page of a list, newest first. */
        WebhookStatsPage: {
            /** @description Pass as `pageToken` for the next page; absent on the last page. */
            nextPageToken?: string;
            results: components["schemas"]["WebhookStats"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getJwks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The public keys that verify access tokens */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonWebKeySet"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    exchangeToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenRequest"];
                "application/x-www-form-urlencoded": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description Exchange client credentials for an access token */
            200: {
                headers: {
                    "cache-control": "no-store";
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessToken"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the API key is missing, invalid or of another account. */
            403: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON where JSON is required. */
            415: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests: wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This document */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createConnect: {
        parameters: {
            query: {
                /** @description The nonprofit id (a UUID). */
                nonprofit: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateConnect"];
            };
        };
        responses: {
            /** @description Create (or get) the account's Connect for a nonprofit */
            201: {
                headers: {
                    /** @description /v1/connects/{id} */
                    location: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connect"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the API key is missing, invalid or of another account. */
            403: {
                headers: {
                    /** @description error="insufficient_scope" when the scope is missing. */
                    "www-authenticate"?: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON where JSON is required. */
            415: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getConnect: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The CID. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a Connect with its API key */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectWithKey"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the API key is missing, invalid or of another account. */
            403: {
                headers: {
                    /** @description error="insufficient_scope" when the scope is missing. */
                    "www-authenticate"?: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    eraseDonor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ErasureRequest"];
            };
        };
        responses: {
            /** @description Erase one donor's data */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErasureReport"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON where JSON is required. */
            415: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listFunds: {
        parameters: {
            query?: {
                /** @description Results per page, 1–100 (default 10). */
                pageLimit?: number;
                /** @description The `nextPageToken` of the previous page of the same list; opaque. */
                pageToken?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List the funds a grant may come from */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FundPage"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listGrants: {
        parameters: {
            query?: {
                /** @description Results per page, 1–100 (default 10). */
                pageLimit?: number;
                /** @description The `nextPageToken` of the previous page of the same list; opaque. */
                pageToken?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List a Connect's grants */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GrantPage"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the API key is missing, invalid or of another account. */
            403: {
                headers: {
                    /** @description error="insufficient_scope" when the scope is missing. */
                    "www-authenticate"?: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createGrant: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key within 24 h answers the first response again, with Idempotent-Replayed: true. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    amount: number;
                    /** @default false */
                    coveredFees?: boolean;
                    /** Format: email */
                    email: string;
                    firstName: string;
                    fundId: string;
                    lastName: string;
                    metadata?: {
                        [key: string]: string;
                    };
                    note?: string | null;
                    phone?: string | null;
                };
            };
        };
        responses: {
            /** @description Create a grant */
            201: {
                headers: {
                    "idempotent-replayed"?: "true";
                    /** @description /v1/grants/{id} */
                    location: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Grant"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the API key is missing, invalid or of another account. */
            403: {
                headers: {
                    /** @description error="insufficient_scope" when the scope is missing. */
                    "www-authenticate"?: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state. */
            409: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON where JSON is required. */
            415: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getGrant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The grant id (a UUID). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a grant */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Grant"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the API key is missing, invalid or of another account. */
            403: {
                headers: {
                    /** @description error="insufficient_scope" when the scope is missing. */
                    "www-authenticate"?: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    streamGrantDeliveries: {
        parameters: {
            query: {
                /** @description Grants made at or after this time (inclusive). */
                after: string;
                /** @description Grants made before this time (exclusive); at most 31 days after `after`. */
                before: string;
                /** @description Only the grants to this nonprofit: its id, or its EIN. */
                nonprofit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stream a range's grants with their deliveries (NDJSON) */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": components["schemas"]["GrantDelivery"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the API key is missing, invalid or of another account. */
            403: {
                headers: {
                    /** @description error="insufficient_scope" when the scope is missing. */
                    "www-authenticate"?: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listAccountMessages: {
        parameters: {
            query?: {
                after?: string;
                before?: string;
                delivered?: "true" | "false";
                eventType?: "grant.succeeded" | "webhook.failing" | "webhook.disabled" | "message.attempt.exhausted" | "webhook.recovered";
                /** @description Results per page, 1–100 (default 10). */
                pageLimit?: number;
                /** @description The `nextPageToken` of the previous page of the same list; opaque. */
                pageToken?: string;
                payloadEquals?: string;
                payloadPath?: string;
                payloadText?: string;
                tag?: string;
                withWebhooks?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List the account's messages */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountMessagePage"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAccountMessage: {
        parameters: {
            query?: {
                withAttempts?: "true" | "false";
            };
            header?: never;
            path: {
                /** @description A message id (`msg_…`) or event id (`evt_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a message by msg_ or evt_ id, with its deliveries */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountMessageDetail"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getNonprofit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 9 digits, no dash. */
                ein: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a nonprofit by EIN */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Nonprofit"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the API key is missing, invalid or of another account. */
            403: {
                headers: {
                    /** @description error="insufficient_scope" when the scope is missing. */
                    "www-authenticate"?: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listNonprofits: {
        parameters: {
            query?: {
                /** @description Results per page, 1–100 (default 10). */
                pageLimit?: number;
                /** @description The `nextPageToken` of the previous page of the same list; opaque. */
                pageToken?: string;
                /** @description Digits (a dash allowed): EINs starting with them; `test_…`: the Connect with that CID or CIDs starting so; anything else: a part of the nonprofit's name, its preferred name or its Connect's name, case-insensitive. A page token belongs to its search. */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List and search the registered nonprofits */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NonprofitPage"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the API key is missing, invalid or of another account. */
            403: {
                headers: {
                    /** @description error="insufficient_scope" when the scope is missing. */
                    "www-authenticate"?: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createNonprofit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateNonprofit"];
            };
        };
        responses: {
            /** @description Register a nonprofit */
            201: {
                headers: {
                    /** @description /v1/nonprofit/{ein} */
                    location: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Nonprofit"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The token lacks the scope, or the API key is missing, invalid or of another account. */
            403: {
                headers: {
                    /** @description error="insufficient_scope" when the scope is missing. */
                    "www-authenticate"?: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON where JSON is required. */
            415: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getRetention: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This account's retention */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountRetention"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateRetention: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetentionPatch"];
            };
        };
        responses: {
            /** @description Change this account's retention */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountRetention"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON where JSON is required. */
            415: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Results per page, 1–100 (default 10). */
                pageLimit?: number;
                /** @description The `nextPageToken` of the previous page of the same list; opaque. */
                pageToken?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List the account's webhooks */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookPage"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhook"];
            };
        };
        responses: {
            /** @description Subscribe an endpoint */
            201: {
                headers: {
                    /** @description /v1/webhooks/{id} */
                    location: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON where JSON is required. */
            415: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a webhook */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Delete a webhook */
            204: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhook"];
            };
        };
        responses: {
            /** @description Change a webhook */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON where JSON is required. */
            415: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookAttempt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The attempt id (`atmpt_…`). */
                attemptId: string;
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get an attempt by its id alone */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptWithResponse"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMessages: {
        parameters: {
            query?: {
                after?: string;
                before?: string;
                eventType?: "grant.succeeded" | "webhook.failing" | "webhook.disabled" | "message.attempt.exhausted" | "webhook.recovered";
                /** @description Results per page, 1–100 (default 10). */
                pageLimit?: number;
                /** @description The `nextPageToken` of the previous page of the same list; opaque. */
                pageToken?: string;
                status?: "pending" | "sending" | "success" | "failed";
                withAttempts?: "true" | "false";
                withContent?: "true" | "false";
            };
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List a webhook's messages */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessagePage"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
                /** @description The message id (`msg_…`). */
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a message with its payload */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageWithPayload"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listAttempts: {
        parameters: {
            query?: {
                /** @description Results per page, 1–100 (default 10). */
                pageLimit?: number;
                /** @description The `nextPageToken` of the previous page of the same list; opaque. */
                pageToken?: string;
            };
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
                /** @description The message id (`msg_…`). */
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List a message's attempts */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptPage"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAttempt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The attempt id (`atmpt_…`). */
                attemptId: string;
                /** @description The webhook id (`ep_…`). */
                id: string;
                /** @description The message id (`msg_…`). */
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get an attempt with its response */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptWithResponse"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    resendMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
                /** @description The message id (`msg_…`). */
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Resend a message now */
            202: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptWithResponse"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state. */
            409: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    streamMessages: {
        parameters: {
            query?: {
                after?: string;
                before?: string;
                eventType?: "grant.succeeded" | "webhook.failing" | "webhook.disabled" | "message.attempt.exhausted" | "webhook.recovered";
                status?: "pending" | "sending" | "success" | "failed";
            };
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stream a webhook's messages with their attempts (NDJSON) */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": components["schemas"]["StreamedMessage"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    previewRecover: {
        parameters: {
            query: {
                /** @description Start of the window (inclusive): not in the future, at most 14 days before `until` (or now). */
                since: string;
                /** @description End of the window (exclusive), after `since`; now when left out. */
                until?: string;
            };
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many failed messages a recover of the window would re-send */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecoverPreview"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    recoverMessages: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecoverWindow"];
            };
        };
        responses: {
            /** @description Re-send the window's failed messages */
            202: {
                headers: {
                    /** @description /v1/webhooks/{id}/recover/{runId} */
                    location: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecoverRun"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state. */
            409: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON where JSON is required. */
            415: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getRecoverRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
                /** @description The run id (`rcvr_…`). */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A recover run and its progress */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecoverRun"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    previewReplayMissing: {
        parameters: {
            query: {
                /** @description Start of the window (inclusive): not in the future, at most 14 days before `until` (or now). */
                since: string;
                /** @description End of the window (exclusive), after `since`; now when left out. */
                until?: string;
            };
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many messages of the window the webhook never got */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayMissingPreview"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    replayMissing: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecoverWindow"];
            };
        };
        responses: {
            /** @description Send the messages of the window the webhook never got */
            202: {
                headers: {
                    /** @description /v1/webhooks/{id}/replay-missing/{runId} */
                    location: string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecoverRun"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state. */
            409: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON where JSON is required. */
            415: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getReplayMissingRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
                /** @description The run id (`rcvr_…`). */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A replay-missing run and its progress */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecoverRun"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    previewRetryPending: {
        parameters: {
            query: {
                /** @description Start of the window (inclusive): not in the future, at most 14 days before `until` (or now). */
                since: string;
                /** @description End of the window (exclusive), after `since`; now when left out. */
                until?: string;
            };
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many messages of the window wait for a retry */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetryPendingPreview"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    retryPendingNow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecoverWindow"];
            };
        };
        responses: {
            /** @description Attempt now the window's messages waiting for a retry */
            202: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetryPendingResult"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state. */
            409: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON where JSON is required. */
            415: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get the signing secret */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Rotate the signing secret */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookStats: {
        parameters: {
            query?: {
                window?: "1h" | "24h" | "7d";
            };
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Delivery statistics over a window, with buckets for a chart */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookStats"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sendTestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`ep_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["TestEvent"];
            };
        };
        responses: {
            /** @description Send a test event */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageWithPayload"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource, or one owned by another account. */
            404: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict with the current state. */
            409: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is not JSON where JSON is required. */
            415: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listTroubledMessages: {
        parameters: {
            query: {
                after?: string;
                before?: string;
                message?: string;
                /** @description Results per page, 1–100 (default 10). */
                pageLimit?: number;
                /** @description The `nextPageToken` of the previous page of the same list; opaque. */
                pageToken?: string;
                state: "failed" | "retrying";
                withContent?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account's failed or retrying messages across its webhooks, newest first */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TroubledMessagePage"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    countTroubledMessages: {
        parameters: {
            query?: {
                after?: string;
                before?: string;
                cap?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Each webhook's failed and retrying messages, counted exactly up to a cap */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TroubledCounts"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhookStats: {
        parameters: {
            query?: {
                /** @description Results per page, 1–100 (default 10). */
                pageLimit?: number;
                /** @description The `nextPageToken` of the previous page of the same list; opaque. */
                pageToken?: string;
                window?: "1h" | "24h" | "7d";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every webhook's delivery statistics in one call, a page of webhooks at a time */
            200: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookStatsPage"];
                };
            };
            /** @description Malformed or invalid input: `detail` says what, `errors` names each field. */
            400: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, expired or foreign access token. */
            401: {
                headers: {
                    /** @description Bearer realm="giving-connect", with error="invalid_token" when a token was sent. */
                    "www-authenticate": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The body is over 256 KiB. */
            413: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A bug: the problem carries only the request id to quote. */
            500: {
                headers: {
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (stopped, restarting, unreachable, or cannot write): nothing was changed; try again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "retry-after": string;
                    /** @description The request id (sent by the caller when sane, else generated); quote it in support requests. */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    event_grant_succeeded: {
        parameters: {
            query?: never;
            header: {
                /** @description Same as webhook-id. */
                "svix-id": string;
                /** @description Same as webhook-signature. */
                "svix-signature": string;
                /** @description Same as webhook-timestamp. */
                "svix-timestamp": string;
                /** @description The message id, the same on every retry. */
                "webhook-id": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed by the base64-decoded part of the `whsec_` secret; space-separated while two secrets are active. */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event_grant_succeeded"];
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not received: retried on the schedule. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_message_attempt_exhausted: {
        parameters: {
            query?: never;
            header: {
                /** @description Same as webhook-id. */
                "svix-id": string;
                /** @description Same as webhook-signature. */
                "svix-signature": string;
                /** @description Same as webhook-timestamp. */
                "svix-timestamp": string;
                /** @description The message id, the same on every retry. */
                "webhook-id": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed by the base64-decoded part of the `whsec_` secret; space-separated while two secrets are active. */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event_message_attempt_exhausted"];
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not received: retried on the schedule. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_webhook_disabled: {
        parameters: {
            query?: never;
            header: {
                /** @description Same as webhook-id. */
                "svix-id": string;
                /** @description Same as webhook-signature. */
                "svix-signature": string;
                /** @description Same as webhook-timestamp. */
                "svix-timestamp": string;
                /** @description The message id, the same on every retry. */
                "webhook-id": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed by the base64-decoded part of the `whsec_` secret; space-separated while two secrets are active. */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event_webhook_disabled"];
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not received: retried on the schedule. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_webhook_failing: {
        parameters: {
            query?: never;
            header: {
                /** @description Same as webhook-id. */
                "svix-id": string;
                /** @description Same as webhook-signature. */
                "svix-signature": string;
                /** @description Same as webhook-timestamp. */
                "svix-timestamp": string;
                /** @description The message id, the same on every retry. */
                "webhook-id": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed by the base64-decoded part of the `whsec_` secret; space-separated while two secrets are active. */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event_webhook_failing"];
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not received: retried on the schedule. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_webhook_recovered: {
        parameters: {
            query?: never;
            header: {
                /** @description Same as webhook-id. */
                "svix-id": string;
                /** @description Same as webhook-signature. */
                "svix-signature": string;
                /** @description Same as webhook-timestamp. */
                "svix-timestamp": string;
                /** @description The message id, the same on every retry. */
                "webhook-id": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed by the base64-decoded part of the `whsec_` secret; space-separated while two secrets are active. */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event_webhook_recovered"];
            };
        };
        responses: {
            /** @description Received. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not received: retried on the schedule. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
