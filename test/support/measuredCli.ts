/**
 * The CLI in a child process that reports its own peak memory: `node measuredCli.js ARGS...`
 * runs `main(ARGS)` and writes `maxRSS=<KiB>` as the last line of stderr. The hostile-input
 * tests bound each run's time and memory through it.
 */
import { main } from '../../src/cli/main';

process.exitCode = main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
process.on('exit', () => process.stderr.write(`\nmaxRSS=${process.resourceUsage().maxRSS}\n`));
