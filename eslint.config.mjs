import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const SERVICE_IMPORTS = {
  patterns: [
    {
      group: ['@/lib/service', '@/lib/service/*', '**/lib/service', '**/lib/service/*', '../service', '../service/*', '../../service/*'],
      message: 'The console reaches the service only over HTTP, through lib/console/connect-api (see ARCHITECTURE.md).',
    },
  ],
};

const CONSOLE_IMPORTS = {
  group: ['@/lib/console', '@/lib/console/*', '**/lib/console', '**/lib/console/*', '../console', '../console/*'],
  message: 'Shared code (lib/http, db, crypto, net, metrics, openapi) serves both halves and imports neither (see ARCHITECTURE.md).',
};
// The service does not import the console either: what both halves use is shared code (lib/money.ts, lib/http, …).
const SERVICE_NOT_CONSOLE = {
  group: [...CONSOLE_IMPORTS.group, '../../console', '../../console/*'],
  message: "The service never imports the console's code (lib/console): move what both halves use into shared lib/ (see ARCHITECTURE.md).",
};
const SHARED_IMPORTS = {
  patterns: [{ ...SERVICE_IMPORTS.patterns[0], message: CONSOLE_IMPORTS.message }, CONSOLE_IMPORTS],
};
// Each half uses its own tables (lib/db/schema/{service,console}.ts), never the other's nor the index
// of both: one database, two schemas, and neither half reads or writes the other's.
const SERVICE_TABLES = {
  regex: '(^|/)db/schema(/index|/service[\\w-]*)?$',
  message: "Console code uses the console's tables only (import them from @/lib/db/schema/console); the service's data comes over HTTP.",
};
const CONSOLE_TABLES = {
  regex: '(^|/)db/schema(/index|/console[\\w-]*)?$',
  message: "Service code uses the service's tables only (import them from @/lib/db/schema/service); the console's schema is the console's.",
};
// Every CSV the console makes goes through one writer, so every cell follows one formula-escaping rule.
const ONE_CSV_WRITER = {
  group: ['csv-stringify', 'csv-stringify/*'],
  message: 'Write CSV through lib/console/export/csv-writer.ts (one escaping rule for every CSV).',
};
const CONSOLE_CODE = { patterns: [...SERVICE_IMPORTS.patterns, SERVICE_TABLES, ONE_CSV_WRITER] };

const APP_IMPORTS = {
  patterns: [
    {
      group: ['@/app', '@/app/*', '**/app/*'],
      message: 'Components are used by app/, never the other way round: move what they need into lib/ or components/.',
    },
  ],
};

// Pages, server actions and routes under app/ neither check the session, redact nor audit by hand: a
// page's view comes checked and redacted from its staffView loader, an action or route is checked and
// names its audit in staffAction / withStaff (lib/console/staff/), and none of them opens the database.
const WRAPPED_ONLY = [
  {
    group: ['@/lib/console/staff/viewer-redaction', '**/staff/viewer-redaction'],
    importNames: ['asSeenBy', 'redactForViewer'],
    message: 'A page gets its view redacted from a staffView loader (lib/console/staff/staff-view.ts), never redacts itself.',
  },
  {
    group: ['@/lib/console/audit/record-audit', '**/audit/record-audit', '@/lib/console/audit/audited', '**/audit/audited'],
    message: 'Actions and routes name their audit in staffAction / withStaff({ audit }), or call a lib/console function that audits itself.',
  },
  {
    group: ['@/lib/db/client', '@/lib/db/query', '@/lib/db/listen', '@/lib/db/drivers/*'],
    message: 'Console pages, actions and routes reach the database through lib/console.',
  },
  {
    group: ['@/lib/console/staff/session', '**/staff/session'],
    importNames: ['requireRole', 'requireSignedIn', 'getStaff'],
    message:
      'One way in: a page gets its staff member from its staffView loader, an action from staffAction / staffFormAction / staffFormPost, a route from withStaff (lib/console/staff/).',
  },
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Source files stay under 300 lines (a file that grows past it is doing several jobs); test files may be longer.
    files: ['**/*.{ts,tsx,mjs}'],
    ignores: ['tests/**', 'lib/db/migrations/**'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  {
    // Test bodies are whatever the server sent: JSON read loosely, asserted field by field.
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The console half, its pages and its receiver never import the service half.
    files: ['lib/console/**', 'app/ingest/**', 'app/api/**', 'app/share/**', 'app/auth/**', 'app/login/**', 'app/account/**', 'scripts/console-cli.ts'],
    rules: { 'no-restricted-imports': ['error', CONSOLE_CODE] },
  },
  {
    // The CSV writer itself: the console's rule without ONE_CSV_WRITER.
    files: ['lib/console/export/csv-writer.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...SERVICE_IMPORTS.patterns, SERVICE_TABLES] }] },
  },
  {
    // The service half, its routes and its Connect flow never touch the console's tables nor import its code.
    files: ['lib/service/**', 'app/v1/**', 'app/oauth/**', 'app/.well-known/**', 'app/connect/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CONSOLE_TABLES, SERVICE_NOT_CONSOLE] }] },
  },
  {
    // The console's pages, actions and routes: the same, and no redaction, audit or database by hand.
    files: ['app/(console)/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...CONSOLE_CODE.patterns, ...WRAPPED_ONLY] }] },
  },
  {
    // Shared code imports neither half: dependencies run app → lib/{service,console} → lib/{http,db,…}.
    files: ['lib/http/**', 'lib/db/**', 'lib/crypto/**', 'lib/net/**', 'lib/metrics/**', 'lib/openapi/**', 'lib/readiness/**'],
    rules: { 'no-restricted-imports': ['error', SHARED_IMPORTS] },
  },
  {
    // Components are the leaves the pages are built from: they never import app/.
    files: ['components/**'],
    ignores: ['components/console/**'],
    rules: { 'no-restricted-imports': ['error', APP_IMPORTS] },
  },
  {
    // Console components: neither the service half nor app/ (one rule per file set: a later one replaces an earlier).
    files: ['components/console/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...CONSOLE_CODE.patterns, ...APP_IMPORTS.patterns] }] },
  },
  globalIgnores([
    'openapi/**',
    '.next*/**',
    'node_modules/**',
    '.data/**',
    'next-env.d.ts',
    'lib/db/migrations/**',
    'test-results/**',
    'playwright-report/**',
    'tests/.tmp/**',
  ]),
]);
