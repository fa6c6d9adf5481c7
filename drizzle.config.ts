import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './lib/db/schema',
  out: './lib/db/migrations',
  casing: 'snake_case',
  schemaFilter: ['service', 'console'],
});
