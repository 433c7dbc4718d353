/** Traces of the examples, produced the way users get them: the CLI's JSON output. */
import { main } from '../../src/cli/main';
import { collectingOutput } from '../../src/cli/output';
import type { TraceReport } from '../../src/report/contract';
import { REPO_ROOT } from '../support/shared';

export function exampleTrace(...args: string[]): TraceReport {
  const output = collectingOutput();
  const cwd = process.cwd();
  process.chdir(REPO_ROOT);
  try {
    const code = main(['simulate', ...args, '--format', 'json'], output);
    if (code !== 0) throw new Error(`simulate ${args.join(' ')} exited ${code}: ${output.err}`);
  } finally {
    process.chdir(cwd);
  }
  return JSON.parse(output.out) as TraceReport;
}
