/** A small command-line parser: `--name value`, `--name=value`, repeated options, `--` ends options. */
export interface OptionSpec {
  /** Takes a value (otherwise a boolean switch). */
  value: boolean;
  repeatable?: boolean;
  /** A one-letter form (`-o`), taken where an option may stand: not as another option's value, nor after `--`. */
  short?: string;
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
    const short = /^-[^-]/.test(arg) ? Object.keys(spec).find((name) => spec[name].short === arg[1]) : undefined;
    // A short option the command does not have: not a path named "-o".
    if (/^-[^-]/.test(arg) && short === undefined) throw new UsageError(`unknown option ${arg}`);
    if (short === undefined && (!arg.startsWith('--') || arg === '-')) {
      positionals.push(arg);
      continue;
    }
    // Where a value written with the option starts, or -1: --name=value, and as pflag takes them -ovalue and -o=value.
    const eq = arg.indexOf('=');
    const valueAt = short !== undefined ? (arg.length > 2 ? (arg[2] === '=' ? 3 : 2) : -1) : eq < 0 ? -1 : eq + 1;
    const name = short ?? arg.slice(2, eq < 0 ? undefined : eq);
    // Messages name the option as it was written.
    const given = short === undefined ? `--${name}` : `-${arg[1]}`;
    const option = spec[name];
    if (!option) throw new UsageError(`unknown option ${given}`);
    let value = 'true';
    if (option.value) {
      if (valueAt >= 0) value = arg.slice(valueAt);
      else if (i + 1 < argv.length) value = argv[++i];
      else throw new UsageError(`${given} needs a value`);
    } else if (valueAt >= 0) {
      throw new UsageError(`${given} takes no value`);
    }
    const values = options.get(name) ?? [];
    if (values.length > 0 && !option.repeatable) throw new UsageError(`${given} is given more than once`);
    values.push(value);
    options.set(name, values);
  }
  return { positionals, options };
}

export function single(args: ParsedArgs, name: string): string | undefined {
  return args.options.get(name)?.[0];
}
