import { UsageError } from './args';
import { CHECK_USAGE, runCheck } from './checkCommand';
import { LOAD_USAGE, runLoad } from './loadCommand';
import { SIMULATE_USAGE, runSimulate } from './simulateCommand';
import { safeOutput, type Output } from './output';
import { TOOL_VERSION } from './version';

interface Command {
  synopsis: string;
  summary: string;
  usage: string;
  run(argv: string[], out: Output): number;
}

const COMMANDS: Record<string, Command> = {
  check: { synopsis: 'check PATH...', summary: 'check manifests and cluster configuration files', usage: CHECK_USAGE, run: runCheck },
  simulate: { synopsis: 'simulate PATH...', summary: 'simulate node failures against the workloads in PATH', usage: SIMULATE_USAGE, run: runSimulate },
  load: { synopsis: 'load --nodes N', summary: 'control-plane write load of the kubelets\' heartbeats', usage: LOAD_USAGE, run: runLoad },
};

const USAGE = `Usage: kube-failure-sim <command> [options]

Commands:
${Object.values(COMMANDS).map((c) => `  ${c.synopsis.padEnd(18)}${c.summary}`).join('\n')}
  help [COMMAND]    show help (also -h or --help after any command)
  --version         print the version (also after any command)

Run "kube-failure-sim help COMMAND" for a command's options.`;

const isHelp = (arg: string) => arg === '-h' || arg === '--help';

/** Runs the CLI and returns the exit code (0 ok, 1 error findings, 2 usage or I/O error). */
export function main(argv: string[], given: Output): number {
  const out = safeOutput(given);
  const [name, ...rest] = argv;
  try {
    if (name === '--version' || name === '-v') return printVersion(out);
    if (name === undefined || isHelp(name) || name === 'help') {
      // `help -h`, `help --help` and `help help` are about help itself: the general usage.
      const topic = name === 'help' ? rest[0] : undefined;
      const about = topic !== undefined && !isHelp(topic) && topic !== 'help' ? command(topic).usage : USAGE;
      // Asked for, help is the output; with no command at all it is a usage error, on standard error.
      if (name === undefined) {
        out.stderr(`${about}\n`);
        return 2;
      }
      out.stdout(`${about}\n`);
      return 0;
    }
    const chosen = command(name);
    // Help wins wherever it is among the options (not after --, where it would be a file name).
    const options = rest.indexOf('--') < 0 ? rest : rest.slice(0, rest.indexOf('--'));
    if (options.some(isHelp)) {
      out.stdout(`${chosen.usage}\n`);
      return 0;
    }
    if (options.includes('--version')) return printVersion(out);
    return chosen.run(rest, out);
  } catch (error) {
    if (error instanceof UsageError) {
      out.stderr(`kube-failure-sim: ${error.message}\nRun "kube-failure-sim help${name && name in COMMANDS ? ` ${name}` : ''}" for usage.\n`);
      return 2;
    }
    throw error;
  }
}

function printVersion(out: Output): number {
  out.stdout(`kube-failure-sim ${TOOL_VERSION}\n`);
  return 0;
}

function command(name: string): Command {
  const found = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!found) throw new UsageError(`unknown command "${name}"; commands: ${Object.keys(COMMANDS).join(', ')}, help`);
  return found;
}
