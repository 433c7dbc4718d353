import { UsageError } from './args';
import { CHECK_USAGE, runCheck } from './checkCommand';
import { LOAD_USAGE, runLoad } from './loadCommand';
import { SIMULATE_USAGE, runSimulate } from './simulateCommand';
import type { Output } from './output';

const USAGE = `Usage: kube-failure-sim <command> [options]

Commands:
  check PATH...     check manifests and cluster configuration files
  simulate PATH...  simulate node failures against the workloads in PATH
  load --nodes N    control-plane write load of the kubelets' heartbeats
  help [COMMAND]    show help

${CHECK_USAGE}

${SIMULATE_USAGE}

${LOAD_USAGE}`;

/** Runs the CLI and returns the exit code (0 ok, 1 error findings, 2 usage or I/O error). */
export function main(argv: string[], out: Output): number {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'check':
        return runCheck(rest, out);
      case 'simulate':
        return runSimulate(rest, out);
      case 'load':
        return runLoad(rest, out);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        out.stdout(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      out.stderr(`kube-failure-sim: ${error.message}\nRun "kube-failure-sim help" for usage.\n`);
      return 2;
    }
    throw error;
  }
}
