/** A small command-line parser: `--name value`, `--name=value`, repeated options, `--` ends options. */
export interface OptionSpec {
  /** Takes a value (otherwise a boolean switch). */
  value: boolean;
  repeatable?: boolean;
}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string[]>;
}

export class UsageError extends Error {}

export function parseArgs(argv: string[], spec: Record<string, OptionSpec>): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    // A short option the command does not map to a long one: not a path named "-o".
    if (/^-[^-]/.test(arg)) throw new UsageError(`unknown option ${arg}`);
    if (!arg.startsWith('--') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const option = spec[name];
    if (!option) throw new UsageError(`unknown option --${name}`);
    let value = 'true';
    if (option.value) {
      if (eq >= 0) value = arg.slice(eq + 1);
      else if (i + 1 < argv.length) value = argv[++i];
      else throw new UsageError(`--${name} needs a value`);
    } else if (eq >= 0) {
      throw new UsageError(`--${name} takes no value`);
    }
    const values = options.get(name) ?? [];
    if (values.length > 0 && !option.repeatable) throw new UsageError(`--${name} is given more than once`);
    values.push(value);
    options.set(name, values);
  }
  return { positionals, options };
}

export function single(args: ParsedArgs, name: string): string | undefined {
  return args.options.get(name)?.[0];
}
