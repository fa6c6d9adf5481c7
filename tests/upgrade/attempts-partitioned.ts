import assert from 'node:assert/strict';
import { withAppDb } from '../helpers/app';
import { attemptsOf } from '../helpers/delivery';
import { call, token } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0037 partitions service.attempts by created_at (issue 52): a store of the release before
// (migrations up to 0036) keeps every attempt, in the old table become the first partition
// (attempts_p0, MINVALUE to the cutover, its range proved by a validated CHECK); an attempt made now
// lands in the partition of its time, made by the migration or the app's start, which has made them a
// week ahead; and a row past the cutover cannot go into the first partition.

const NAME = 'old-attempts-0035';
const ACCOUNT = '00000000-0000-4000-8000-00000000a036';
const WEBHOOK = `ep_${'oldattempts0035'.padEnd(27, '0')}`;
const id27 = (prefix: string, name: string) => `${prefix}${name.padEnd(27, '0')}`;
// Three messages of the old release, each delivered once: three days, two hours and a minute before the walk.
const OLD = (['3 days', '2 hours', '1 minute'] as const).map((ago, i) => ({
  ago,
  message: id27('msg_', `oldatt0035m${i}`),
  attempt: id27('atmpt_', `oldatt0035a${i}`),
  delivery: `00000000-0000-4000-8000-0000000b036${i}`,
}));

const rows = `
  insert into service.accounts (id, name) values ('${ACCOUNT}', '${NAME}');
  insert into service.webhooks (id, account_id, url, event_types) values ('${WEBHOOK}', '${ACCOUNT}', 'http://127.0.0.1:9/attempts', '{grant.succeeded}');
  insert into service.webhook_secrets (webhook_id, secret) values ('${WEBHOOK}', 'whsec_${Buffer.alloc(24, 36).toString('base64')}');
  ${OLD.map(
    (o) => `
  insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values
    ('${o.message}', '${ACCOUNT}', 'evt_${o.message.slice(4)}', 'grant.succeeded', '{"type":"grant.succeeded","data":{}}', now() - interval '${o.ago}');
  insert into service.deliveries (id, message_id, webhook_id, account_id, event_type, status, attempt_count, created_at) values
    ('${o.delivery}', '${o.message}', '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', 'success', 1, now() - interval '${o.ago}');
  insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type) values
    ('${o.attempt}', '${o.delivery}', '${o.message}', '${WEBHOOK}', '${ACCOUNT}', 'http://127.0.0.1:9/attempts', now() - interval '${o.ago}', 'success', 200, 5, 'ok', 'scheduled');`,
  ).join('')}`;

// A partition's bounds, as timestamps (null: MINVALUE / MAXVALUE).
const PARTS = `
  select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound,
         case when pg_get_expr(c.relpartbound, c.oid) like '%FROM (MINVALUE)%' then null
              else substring(pg_get_expr(c.relpartbound, c.oid) from 'FROM \\(''([^'']*)''\\)')::timestamptz end as "from",
         substring(pg_get_expr(c.relpartbound, c.oid) from 'TO \\(''([^'']*)''\\)')::timestamptz as "to"
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
   where i.inhparent = 'service.attempts'::regclass order by "from" nulls first`;

type TPart = { name: string; bound: string; from: Date | null; to: Date };

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0037: the attempts of the release before are the first partition of service.attempts, a new attempt lands in the partition of its time, and the first partition takes nothing past its range',
    release: '0036_webhook_rate_sent',
    accounts: [NAME],
    rows,
    check: async (app) => {
      const bearer = await token(app, app.clients[NAME]);
      // The API reads the old attempts as before.
      for (const o of OLD)
        assert.deepEqual(
          (await attemptsOf(app, bearer, WEBHOOK, o.message)).map((a) => a.id),
          [o.attempt],
        );
      // A new attempt, made now: a resend of the newest message (nothing listens on port 9: a failed attempt, recorded).
      const resent = await call(app, 'POST', `/v1/webhooks/${WEBHOOK}/messages/${OLD[2].message}/resend`, { token: bearer });
      assert.equal(resent.status, 202, resent.text);
      const fresh = resent.body.id as string;

      // One look at the store (on the embedded store it restarts the app).
      const look = await withAppDb(app, async (query) => {
        const kind = await query<{ kind: string }>(`select relkind::text as kind from pg_class where oid = 'service.attempts'::regclass`);
        const attempts = await query<{ id: string; part: string; at: Date }>(
          `select id, tableoid::regclass::text as part, created_at as at from service.attempts where account_id = $1 order by created_at`,
          [ACCOUNT],
        );
        const parts = await query<TPart>(PARTS);
        const check = await query<{ valid: boolean; def: string }>(
          `select convalidated as valid, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'service.attempts_p0'::regclass and conname = 'attempts_p0_range'`,
        );
        // A row at the cutover, written into the first partition itself: refused (its range ends there).
        const refused = await query(
          `insert into service.attempts_p0 (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, trigger_type)
             select 'atmpt_refused_0036', delivery_id, message_id, webhook_id, account_id, url, $2, 'failed', 0, 0, 'manual' from service.attempts where id = $1`,
          [OLD[0].attempt, parts[0].to],
        ).then(
          () => null,
          (err: Error) => err.message,
        );
        return { kind: kind[0].kind, attempts, parts, check: check[0], refused };
      });

      assert.equal(look.kind, 'p', 'service.attempts is a partitioned table');
      const [first, ...later] = look.parts.map((p) => ({ ...p, from: p.from && new Date(p.from), to: new Date(p.to) }));
      assert.equal(first.name, 'attempts_p0');
      assert.equal(first.from, null, 'the first partition starts at MINVALUE');
      assert.ok(first.to.getTime() >= Date.parse(app.readyAt) - 600_000 && first.to.getTime() <= Date.parse(app.readyAt), 'its range ends at the upgrade');
      assert.deepEqual(
        look.attempts.filter((a) => a.id !== fresh).map((a) => [a.id, a.part]),
        OLD.map((o) => [o.attempt, 'service.attempts_p0']),
        'every old attempt is in the first partition',
      );
      // Its CHECK states the same bound, validated: what let ATTACH skip reading the rows.
      assert.equal(look.check.valid, true);
      assert.equal(/'([^']+)'/.exec(look.check.def)?.[1], /TO \('([^']+)'\)/.exec(first.bound)?.[1], look.check.def);
      assert.match(String(look.refused), /violates (partition constraint|check constraint)/);

      // The later partitions follow each other from the cutover, a week ahead of now at least (made at the app's start).
      let end = first.to.getTime();
      for (const p of later) {
        assert.equal(p.from?.getTime(), end, `${p.name} starts where the one before ends`);
        end = p.to.getTime();
      }
      assert.ok(end >= Date.now() + 6 * 86_400_000, `partitions reach ${new Date(end).toISOString()}`);
      const made = look.attempts.find((a) => a.id === fresh);
      const home = later.find((p) => `service.${p.name}` === made?.part);
      assert.ok(home, `the new attempt is in a later partition (${made?.part})`);
      assert.ok(home.from!.getTime() <= new Date(made!.at).getTime() && new Date(made!.at).getTime() < home.to.getTime(), 'the one of its time');
    },
  },
];
