// Preloaded into every node:test file process by scripts/test.mjs: at exit, appends the file's
// wall time (process start to exit: boot, imports, apps, tests, teardown) to TEST_FILE_TIMES, one
// JSON line per file, for the slowest-files summary and .ci/test-times.txt (longest first).
import fs from 'node:fs';
import path from 'node:path';

const out = process.env.TEST_FILE_TIMES;
const file = process.argv[1];
if (out && process.env.NODE_TEST_CONTEXT && file) {
  process.once('exit', (code) => {
    const seconds = performance.now() / 1000;
    try {
      fs.appendFileSync(out, JSON.stringify({ file: path.relative(process.cwd(), file), seconds: Number(seconds.toFixed(1)), code }) + '\n');
    } catch {
      /* the summary is a convenience: never fail a test file over it */
    }
  });
}
