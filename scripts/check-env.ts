// Validates the configuration the way the app will see it; one line per bad variable, exit 1.
import '../lib/load-env';
import { parseEnv } from '@/lib/env';

try {
  const env = parseEnv();
  if (process.argv.includes('--print-port')) console.log(env.PORT);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
