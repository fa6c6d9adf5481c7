// Own app: it opens a database older releases left (every step of tests/upgrade/, walked into one by tests/helpers/upgrade-walk.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startApp } from '../helpers/app';
import { eventually } from '../helpers/http';
import { runWithLookBatch, walkedDatabase, type TUpgradeApp, type TUpgradeStep } from '../helpers/upgrade-walk';

// Every upgrade test in one app: each module of tests/upgrade/ (one per topic) exports the steps it
// owns — rows as an earlier release wrote them and what to check once the app has opened them — and
// this file walks them into one database, starts one app on it (the union of the steps' settings and
// accounts) and runs each step's check as a test of its own. One start and one migration chain,
// where each step used to start an app on a database of its own.

const DIR = path.resolve(import.meta.dirname, '../upgrade');
const modules = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.ts'))
  .sort();
const steps: TUpgradeStep[] = [];
for (const file of modules) steps.push(...((await import(path.join(DIR, file))) as { steps: TUpgradeStep[] }).steps);

let app: TUpgradeApp;
// Each step's check, started with the others once the app is up: they run side by side, and their looks
// at the embedded store are taken in as few restarts of the app as can be (runWithLookBatch). Each test
// reports its own step's outcome.
let outcomes: Promise<void>[] = [];
before(
  async () => {
    const walked = await walkedDatabase(steps);
    app = Object.assign(await startApp({ env: walked.env }), { readyAt: new Date().toISOString() });
    Object.assign(app.clients, walked.clients);
    // The start's two search backfills (receipt bodies, message payloads) run over the old rows before any step looks: a
    // step's look at the database restarts the app on the embedded store, and one during a backfill cut it short — the
    // payload-search step then waited for a line the first run never wrote.
    await eventually(
      async () => (app.logs().match(/search backfill: \d+ earlier rows made searchable/g) ?? []).length >= 2,
      120_000,
      'the search backfills to end',
    );
    outcomes = runWithLookBatch(
      app,
      steps.map((step) => () => step.check(app)),
    );
    for (const outcome of outcomes) outcome.catch(() => {}); // each is its test's to report (below), even when the test is filtered out
  },
  // The walk (every migration, each step's rows) and the start: over 60 s at CI's load of ~25.
  { timeout: 300_000 },
);
after(async () => {
  await app?.stop();
  for (const step of steps) await step.close?.();
});

steps.forEach((step, i) =>
  test(step.name, () => {
    assert.ok(outcomes[i], 'the check was started once the app was up');
    return outcomes[i];
  }),
);
