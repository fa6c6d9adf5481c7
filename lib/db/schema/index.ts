// Every table, by owner: drizzle-kit diffs this folder into migrations (drizzle.config.ts), and the
// database client types its queries with it. Code of either half imports its own half's file
// (service.ts or console.ts), never this one nor the other's (eslint.config.mjs).
export * from './service';
export * from './console';
