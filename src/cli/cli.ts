#!/usr/bin/env node
import { main } from './main';

// A reader that stops early (`| head`) closes the pipe: that ends the output, it is not a crash.
// Any other failure to write (a full disk) is the usage error -o gives for it, not a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`kube-failure-sim: cannot write the output: ${error.message}\n`);
  process.exit(2);
});

// Write through the streams and let Node exit once they drain (process.exit could cut off piped output).
process.exitCode = main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
