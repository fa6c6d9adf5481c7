// Loaded with --import into a command the test runs: prints the process's peak resident memory as
// it exits ("peak-rss <bytes>" on stderr), which a test reads to bound what a command may take.
process.on('exit', () => process.stderr.write(`\npeak-rss ${process.resourceUsage().maxRSS * 1024}\n`));
