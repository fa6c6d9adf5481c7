// Preloaded into every node:test file process by scripts/test.mjs: at exit, appends the file's
// wall time (process start to exit: boot, imports, apps, tests, teardown) to TEST_FILE_TIMES, one
// JSON line per file, for the slowest-files summary and .ci/test-times.txt (longest first), with
// the CPU seconds the file and the processes it started and ended (its apps, CLIs) used, from
// /proc (Linux): on a machine with few cores, CPU — not waiting — is what makes a pass long. `start`
// is when the process began (Unix seconds): with `seconds`, a pass's timeline — which files ran
// side by side, and what ran last.
import fs from 'node:fs';
import path from 'node:path';

const out = process.env.TEST_FILE_TIMES;
const file = process.argv[1];
if (out && process.env.NODE_TEST_CONTEXT && file) {
  process.once('exit', (code) => {
    const seconds = performance.now() / 1000;
    try {
      fs.appendFileSync(
        out,
        JSON.stringify({
          file: path.relative(process.cwd(), file),
          start: Number((Date.now() / 1000 - seconds).toFixed(1)),
          seconds: Number(seconds.toFixed(1)),
          cpu: cpuSeconds(),
          code,
        }) + '\n',
      );
    } catch {
      /* the summary is a convenience: never fail a test file over it */
    }
  });
}

/** utime + stime + cutime + cstime of /proc/self/stat, in seconds; null off Linux. */
function cpuSeconds() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14–17 of proc(5), counted from 1 with pid and comm before the state (index 0 here).
    const ticks = fields.slice(11, 15).reduce((n, f) => n + Number(f), 0);
    return Number((ticks / 100).toFixed(1));
  } catch {
    return null;
  }
}
