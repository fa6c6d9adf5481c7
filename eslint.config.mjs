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
    // Test bodies are whatever the server sent: JSON read loosely, asserted field by field.
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The console half, its pages and its receiver never import the service half.
    files: ['lib/console/**', 'app/(console)/**', 'app/ingest/**', 'components/console/**', 'scripts/console-cli.ts'],
    rules: { 'no-restricted-imports': ['error', SERVICE_IMPORTS] },
  },
  globalIgnores(['.next*/**', 'node_modules/**', '.data/**', 'next-env.d.ts', 'lib/db/migrations/**', 'test-results/**', 'playwright-report/**', 'tests/.tmp/**']),
]);
