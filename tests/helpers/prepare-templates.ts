// Run by scripts/test.mjs before the embedded store's test files start: the migrated template every
// app's PGlite directory is copied from, and the blank one old databases start from, made once here
// rather than by each of the first files to run side by side (each made its own, then one kept it).
import { templateDb } from './app';
import { blankPglite } from './old-database';

await Promise.all([templateDb(), blankPglite()]);
