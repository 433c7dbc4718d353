/**
 * The arguments a control-plane component gets from its container: command and args with $(VAR)
 * replaced from the env as the kubelet does and, where a shell runs the component (sh -c, bash -lc,
 * env sh -ec), the words of the script's command that runs it, as the shell splits them ($VAR from
 * the env, quotes, comments, line continuations, ; && || |). No component's flags here.
 */
import type { Range } from '../range';
import { isPlainObject } from '../objects';
import type { FieldReader } from './fieldReader';

export interface Arg {
  text: string;
  range: Range;
  /** Env variables whose values this tool cannot know (valueFrom, envFrom) that the text still names. */
  unresolved: string[];
}

export interface ComponentArgs {
  args: Arg[];
  /** True when the component's own argument list was found (its binary named, or in a script): any word left over is its argument. */
  exact: boolean;
  problems: { range: Range; message: string }[];
}

const SHELL = /(^|\/)(sh|bash|ash|dash|zsh|ksh)$/;
/** sh -c, bash -lc, sh -ec: an option group with c, whose next argument is the script. */
const SCRIPT_OPTION = /^-[A-Za-z]*c[A-Za-z]*$/;

/** The container's env: a literal value, or null for one the kubelet reads from elsewhere (valueFrom, or envFrom for any other name). */
interface Env {
  values: Map<string, string | null>;
  /** envFrom may define any name. */
  open: boolean;
}

function containerEnv(container: FieldReader): Env {
  const values = new Map<string, string | null>();
  const env: Env = { values, open: Array.isArray(container.raw('envFrom')) && (container.raw('envFrom') as unknown[]).length > 0 };
  const raw = container.raw('env');
  if (!Array.isArray(raw)) return env;
  for (const item of raw) {
    if (!isPlainObject(item) || typeof item.name !== 'string') continue;
    // A value the API server refuses (not a string) is as unknown as one read from elsewhere.
    values.set(item.name, item.valueFrom === undefined && typeof item.value === 'string' ? expandReferences(item.value, env).text : item.valueFrom === undefined && item.value === undefined ? '' : null);
  }
  return env;
}

function lookup(env: Env, name: string): string | null | undefined {
  const value = env.values.get(name);
  return value === undefined && env.open ? null : value;
}

/**
 * The kubelet's expansion of command and args (third_party/forked/golang/expansion): $(VAR) is
 * replaced by the variable's value when the env defines it, $$ is one $, and a reference to no
 * variable is left as it is.
 */
function expandReferences(text: string, env: Env): { text: string; unresolved: string[] } {
  const unresolved: string[] = [];
  if (!text.includes('$')) return { text, unresolved };
  const expanded = text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (whole, name: string | undefined) => {
    if (name === undefined) return '$';
    const value = lookup(env, name);
    if (value === null) unresolved.push(name);
    return typeof value === 'string' ? value : whole;
  });
  return { text: expanded, unresolved };
}

export function componentArgs(container: FieldReader, binary: RegExp): ComponentArgs {
  const env = containerEnv(container);
  const items: Arg[] = [];
  for (const field of ['command', 'args']) {
    container.list(field).forEach((item) => {
      const written = item.string();
      if (written !== undefined) items.push({ ...expandReferences(written, env), range: item.range() });
    });
  }
  const option = items.findIndex((item, i) => SCRIPT_OPTION.test(item.text) && items.slice(0, i).some((before) => SHELL.test(before.text)));
  const script = option >= 0 ? items[option + 1] : undefined;
  if (script) {
    // Items after the script are the shell's $0, $1...: not the component's.
    const { commands, problem } = shellCommands(script.text, env);
    if (problem) return { args: [], exact: false, problems: [{ range: script.range, message: problem }] };
    for (const words of commands) {
      const at = words.findIndex((w) => binary.test(w.text));
      // A $(VAR) the kubelet left in the script is unresolved where a word still names it.
      const unresolved = (w: Word) => [...script.unresolved.filter((name) => w.text.includes(`$(${name})`)), ...w.unresolved];
      if (at >= 0) return { args: words.slice(at + 1).map((w) => ({ text: w.text, range: script.range, unresolved: unresolved(w) })), exact: true, problems: [] };
    }
    return { args: [], exact: false, problems: [] };
  }
  const at = items.findIndex((item) => binary.test(item.text));
  return { args: at >= 0 ? items.slice(at + 1) : items, exact: at >= 0, problems: [] };
}

interface Word {
  text: string;
  unresolved: string[];
}

/**
 * A script's commands, each its words, split as POSIX sh splits them: quotes removed, $NAME and
 * ${NAME} replaced from the env (unset: empty), # comments and backslash-newlines dropped, and
 * ; & | && || and newlines ending a command. No other expansion: a control-plane script is plain.
 */
function shellCommands(script: string, env: Env): { commands: Word[][]; problem?: string } {
  const commands: Word[][] = [[]];
  let word: Word | undefined;
  const add = (text: string) => (word = word ? { ...word, text: word.text + text } : { text, unresolved: [] });
  const endWord = () => {
    if (word) commands[commands.length - 1].push(word);
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    if (commands[commands.length - 1].length > 0) commands.push([]);
  };
  /** $NAME or ${NAME} at i: its value, and where the reference ends. */
  const variable = (i: number): { end: number } | undefined => {
    const match = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/.exec(script.slice(i, i + 256));
    if (!match) return undefined;
    const name = match[1] ?? match[2];
    const value = lookup(env, name);
    add(typeof value === 'string' ? value : value === null ? match[0] : '');
    if (value === null) word!.unresolved = [...word!.unresolved, name];
    return { end: i + match[0].length };
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i];
    if (c === '\\' && script[i + 1] === '\n') i++;
    else if (c === '\\') add(script[++i] ?? '');
    else if (c === '\n' || c === ';' || c === '&' || c === '|') endCommand();
    else if (c === ' ' || c === '\t' || c === '\r') endWord();
    else if (c === '#' && word === undefined) {
      const end = script.indexOf('\n', i);
      i = end < 0 ? script.length : end - 1;
    } else if (c === "'" || (c === '$' && script[i + 1] === "'")) {
      const start = c === '$' ? i + 2 : i + 1;
      const end = script.indexOf("'", start);
      if (end < 0) return { commands: [], problem: 'the shell does not run this script: a quote is not closed' };
      add(script.slice(start, end));
      i = end;
    } else if (c === '"') {
      add('');
      for (i++; i < script.length && script[i] !== '"'; i++) {
        if (script[i] === '\\' && script[i + 1] === '\n') i++;
        else if (script[i] === '\\' && '"\\$`'.includes(script[i + 1] ?? '')) add(script[++i]);
        else if (script[i] === '$') {
          const reference = variable(i);
          if (reference) i = reference.end - 1;
          else add('$');
        } else add(script[i]);
      }
      if (i >= script.length) return { commands: [], problem: 'the shell does not run this script: a quote is not closed' };
    } else if (c === '$') {
      const reference = variable(i);
      if (reference) i = reference.end - 1;
      else add(c);
    } else add(c);
  }
  endCommand();
  return { commands: commands.filter((words) => words.length > 0) };
}
