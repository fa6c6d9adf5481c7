// Creates and migrates the database named by DATA_DIR / DATABASE_URL, then closes it.
import '../lib/load-env';
import { closeDb, getDb } from '@/lib/db/client';

await getDb();
await closeDb();
