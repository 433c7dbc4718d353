#!/usr/bin/env node
import { main } from './main';

// Write through the streams and let Node exit once they drain (process.exit could cut off piped output).
process.exitCode = main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
