/** Preloaded (`node -r`) into a process whose peak RSS the benchmark reports: writes it to stderr at exit. */
process.on('exit', () => {
  process.stderr.write(`\nkfs-bench-peak-rss ${process.resourceUsage().maxRSS * 1024}\n`);
});
