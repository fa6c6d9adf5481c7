// Every table, by owner: drizzle-kit diffs this folder into migrations (drizzle.config.ts), and the
// database client types its queries with it.
export * from './service';
export * from './console';
