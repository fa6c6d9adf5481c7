// The console's tables (pg schema `console`, lib/console): staff, sessions, settings, audit, shares,
// tokens, tracked webhooks, alerts, leases, retention; its receivers and receipts are in console-receivers.ts.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, doublePrecision, index, integer, jsonb, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { consoleSchema, createdAt, ts, updatedAt } from './columns';
import { receivers } from './console-receivers';

export * from './console-receivers';

export const users = consoleSchema.table(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull().unique(),
    passwordHash: text(), // null: signs in only by single sign-on
    /** viewer | operator | admin (lib/console/staff/roles.ts); users made before roles (0013) are admins. */
    role: text().notNull().default('viewer'),
    disabledAt: ts(), // set: cannot sign in, and its sessions are gone
    createdAt: createdAt(),
    lastLoginAt: ts(),
    /** A one-time password (an admin's add or reset): nothing but changing it until it is changed (0024). */
    mustChangePassword: boolean().notNull().default(false),
    /** The role came from the identity provider's role claim at the last single sign-on, which sets it at each (0024). */
    roleFromClaim: boolean().notNull().default(false),
    /** The console's theme: system (follows prefers-color-scheme) | light | dark (0028, lib/console/staff/theme.ts). */
    theme: text().notNull().default('system'),
    /** The identity provider's (issuer, subject) this user signs in as, set at their first single sign-on (0031): the match from then on, not the e-mail. */
    oidcIssuer: text(),
    oidcSubject: text(),
  },
  (t) => [uniqueIndex('users_oidc_subject_key').on(t.oidcIssuer, t.oidcSubject)],
);

/** Staff sessions: the cookie names one row; signing out deletes it, so a copied cookie stops working. */
export const sessions = consoleSchema.table(
  'sessions',
  {
    id: text().primaryKey(), // random, 32 characters; sealed inside the cookie
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: ts().notNull(),
  },
  (t) => [index().on(t.userId), index().on(t.expiresAt)],
);

export const loginFailures = consoleSchema.table(
  'login_failures',
  {
    key: text().primaryKey(), // e.g. email or source address
    count: integer().notNull().default(0),
    windowStart: ts().notNull().defaultNow(),
  },
  (t) => [index('login_failures_window_start_idx').on(t.windowStart)],
);

export const settings = consoleSchema.table('settings', {
  key: text().primaryKey(),
  value: text().notNull(),
});

/**
 * Every staff action, append-only: who (the staff e-mail at the time), what (action + target ids),
 * the result (`ok` or an error code) and small details — never secrets. Written by
 * lib/console/audit/record-audit.ts alone; nothing in the console updates or deletes a row.
 */
export const auditLog = consoleSchema.table(
  'audit_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: createdAt(),
    actorId: uuid(), // null for a failed login of no known user
    actor: text().notNull(), // the staff e-mail (as typed, for a failed login)
    action: text().notNull(),
    target: text().notNull().default(''), // the ids acted on, space-separated (`ep_… msg_…`)
    result: text().notNull(), // ok | an error code (`not_found`, `conflict`, `wrong_password`, …)
    detail: jsonb().notNull().default({}),
    environment: text().notNull().default(''),
    source: text().notNull().default(''), // the client's address when known
  },
  (t) => [index().on(t.at.desc(), t.id.desc()), index().on(t.actor, t.id.desc()), index().on(t.action, t.id.desc())],
);

/**
 * Read-only links to one case for people without a login (lib/console/share/): the token is shown
 * once and only its SHA-256 is kept; a link answers until it expires or is revoked.
 */
export const shares = consoleSchema.table(
  'shares',
  {
    id: uuid().primaryKey().defaultRandom(),
    tokenHash: text().notNull().unique(), // SHA-256 (hex) of the token
    query: text().notNull(), // the case's search term (/cases/{query})
    ticket: text().notNull().default(''),
    environment: text().notNull(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdByEmail: text().notNull(),
    createdAt: createdAt(),
    expiresAt: ts().notNull(),
    revokedAt: ts(),
  },
  (t) => [index().on(t.query, t.expiresAt)],
);

/**
 * Personal access tokens: a staff user's bearer token for reading a receiver's receipts
 * (GET /api/receivers/{id}/stream, what `npm run listen` reads). Only the SHA-256 of the token is
 * stored; it is shown once. Revoked or expired, or its owner disabled or below operator, it opens nothing.
 */
export const personalTokens = consoleSchema.table(
  'personal_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    tokenHash: text().notNull().unique(), // SHA-256 (hex) of the token
    createdAt: createdAt(),
    expiresAt: ts().notNull(),
    revokedAt: ts(),
    lastUsedAt: ts(),
  },
  (t) => [index().on(t.userId, t.createdAt)],
);

export const trackedWebhooks = consoleSchema.table(
  'tracked_webhooks',
  {
    environment: text().notNull(), // sandbox | production
    webhookId: text().notNull(),
    receiverId: uuid().references(() => receivers.id),
    url: text().notNull().default(''),
    description: text().notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.environment, t.webhookId] })],
);

/** Staff-defined alert rules, evaluated by the worker process (lib/console/alerts). */
export const alertRules = consoleSchema.table(
  'alert_rules',
  {
    id: uuid().primaryKey().defaultRandom(),
    environment: text().notNull(), // sandbox | production: whose API the facts come from
    name: text().notNull(),
    kind: text().notNull(), // failure_streak | success_rate | receiver_failures | webhook_disabled | grant_undelivered
    webhookId: text(), // the scope: one webhook, or null for every webhook of the account
    threshold: doublePrecision().notNull().default(0), // streak length, success rate %, failed arrivals, or minutes
    window: text(), // success_rate, receiver_failures: 1h | 24h | 7d
    minAttempts: integer().notNull().default(10), // success_rate: fewer attempts in the window never fire
    targetUrl: text().notNull(), // https://… (a POST) or mailto:… (an e-mail through SMTP_URL)
    // How a URL target is spoken to: 'standard' (a signed Standard Webhooks POST) | 'slack' (Slack's
    // incoming-webhook JSON); 'email' for a mailto: target.
    targetFormat: text().notNull().default('standard'),
    secret: text().notNull(), // whsec_…: needed in clear to sign the POSTs; shown once at creation
    enabled: boolean().notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.environment, t.createdAt.desc())],
);

/** One row per time a rule's condition started for a subject; firing while cleared_at is null. */
export const alerts = consoleSchema.table(
  'alerts',
  {
    id: uuid().primaryKey().defaultRandom(),
    ruleId: uuid()
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    subject: text().notNull(), // webhook:<id> | grant:<id>
    firedAt: createdAt(),
    clearedAt: ts(),
    details: jsonb().notNull().default({}),
    // The signed POST to the rule's target when it fired, and when it cleared: status 0 = no response.
    firedPostAt: ts(),
    firedPostStatus: integer(),
    firedPostError: text(),
    clearedPostAt: ts(),
    clearedPostStatus: integer(),
    clearedPostError: text(),
    // Staff: acknowledged (firing but quiet: no repeats), or snoozed until a time; both cleared with the alert.
    acknowledgedBy: text(), // the staff member's e-mail
    acknowledgedAt: ts(),
    acknowledgeNote: text(),
    snoozedUntil: ts(),
    // The last time it was sent as firing (the first notice or a repeat every ALERT_REPEAT), and how many repeats.
    notifiedAt: ts(),
    repeats: integer().notNull().default(0),
  },
  (t) => [
    // Fires once: one open alert per (rule, subject) until it clears.
    uniqueIndex('alerts_open_once')
      .on(t.ruleId, t.subject)
      .where(sql`${t.clearedAt} is null`),
    index().on(t.firedAt.desc()),
    index('alerts_firing_idx')
      .on(t.firedAt)
      .where(sql`${t.clearedAt} is null`),
  ],
);

/** Named leases, so that one process of several does a console job at a time (its purge, the alert evaluation). */
export const leases = consoleSchema.table('leases', {
  name: text().primaryKey(),
  owner: text().notNull(),
  until: ts().notNull(),
});

/** The console's purge (lib/console/retention): what it has purged so far, per kind, and its passes. */
export const consoleRetentionProgress = consoleSchema.table('retention_progress', {
  what: text().primaryKey(), // receipt_bodies | receipts
  purged: bigint({ mode: 'number' }).notNull().default(0),
  lastPurgeAt: ts(),
  passStartedAt: ts(),
  passEndedAt: ts(),
});
