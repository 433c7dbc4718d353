/**
 * The arguments a control-plane component gets from its container: command and args with $(VAR)
 * replaced from the env as the kubelet does and, where a shell runs the component (sh -c, bash -lc,
 * env sh -ec), the words of the script's command that runs it, as the shell splits them (shellCommands).
 * No component's flags here.
 */
import type { Range } from '../range';
import { isPlainObject } from '../objects';
import type { FieldReader } from './fieldReader';

export interface Arg {
  text: string;
  range: Range;
  /** References the text still holds whose values this tool cannot know: $(VAR) from valueFrom or envFrom, a script's $VAR or $(command). */
  unresolved: string[];
}

export interface ComponentArgs {
  args: Arg[];
  /** The component's own argument list, as its command list names it: any word left over is its argument. A script's words are not (too loose a reading). */
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

/** In a script, a variable the container's env does not set may come from the image or the script itself: unknown. */
function shellLookup(env: Env, name: string): string | null {
  return env.values.get(name) ?? null;
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
    if (value === null) unresolved.push(whole);
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
  if (option >= 0) {
    // sh -c -e 'script', sh -c -- 'script': the first word that is no option is the script; the items after it are its $0, $1...
    let at = option + 1;
    while (at < items.length && items[at].text.startsWith('-')) at++;
    const script = items[at];
    if (!script) return { args: [], exact: false, problems: [] };
    const { commands, problem } = shellCommands(script.text, { env, positional: items.slice(at + 1).map((item) => item.text) });
    if (problem) return { args: [], exact: false, problems: [{ range: script.range, message: problem }] };
    // The last command that names the component runs it (scripts check or copy the binary first, then exec it).
    const words = [...commands].reverse().find((command) => command.some((w) => binary.test(w.text)));
    if (!words) return { args: [], exact: false, problems: [] };
    // A $(VAR) the kubelet left in the script is unresolved where a word still names it.
    const unresolved = (w: Word) => [...script.unresolved.filter((reference) => w.text.includes(reference)), ...w.unresolved];
    const from = words.findIndex((w) => binary.test(w.text)) + 1;
    // Not exact: a script's words are what this reading of the shell makes of them, too loose to call one left over.
    return { args: words.slice(from).map((w) => ({ text: w.text, range: script.range, unresolved: unresolved(w) })), exact: false, problems: [] };
  }
  const at = items.findIndex((item) => binary.test(item.text));
  // An empty argument is ignored by the components (their Args check skips it).
  return { args: (at >= 0 ? items.slice(at + 1) : items).filter((item) => item.text !== ''), exact: at >= 0, problems: [] };
}

interface Word {
  text: string;
  unresolved: string[];
}

interface ShellContext {
  env: Env;
  /** The script's $0, $1, ...: the items after it. */
  positional: string[];
}

/** A redirection (2>&1, >> file, </dev/null): no argument of the command. `alone`: its target is the next word. */
const REDIRECTION = /^[0-9]*(>>?|<|>&|<&|>\||&>)(.*)$/;

/**
 * A script's commands, each its words, split as POSIX sh splits them: quotes removed, $NAME,
 * ${NAME}, ${NAME:-default} and "$@" replaced (an unquoted value split into words), # comments,
 * backslash-newlines and redirections dropped, and ; & | && || and newlines ending a command. A
 * variable the container's env does not set may come from the image or the script: unknown. Command
 * substitution is unknown too.
 */
function shellCommands(script: string, { env, positional }: ShellContext): { commands: Word[][]; problem?: string } {
  const commands: Word[][] = [[]];
  let word: Word | undefined;
  const add = (text: string, unresolved: string[] = []) => (word = word ? { text: word.text + text, unresolved: [...word.unresolved, ...unresolved] } : { text, unresolved });
  const endWord = () => {
    if (word) commands[commands.length - 1].push(word);
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    if (commands[commands.length - 1].length > 0) commands.push([]);
  };
  /** A parameter at i ($NAME, ${NAME}, ${NAME:-word}, $1, $@): its words, and where the reference ends. */
  const parameter = (i: number, quoted: boolean): { end: number } | undefined => {
    const match = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])(?:(:?-)([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*|[0-9@*]))/.exec(script.slice(i, i + 512));
    if (!match) return undefined;
    const name = match[1] ?? match[4];
    const values = name === '@' || name === '*' ? positional.slice(1) : /^[0-9]+$/.test(name) ? [positional[Number(name)] ?? ''] : undefined;
    let value: string | null = values ? values.join(' ') : shellLookup(env, name);
    // ${NAME:-word}: the word when NAME is unset (as far as the env says) or, with the colon, empty.
    if (match[2] && (value === null || (match[2] === ':-' && value === ''))) value = match[3];
    if (value === null) add(match[0], [match[0]]);
    else if (quoted && name === '@') values!.forEach((v, k) => (k === 0 ? add(v) : (endWord(), add(v))));
    else if (quoted) add(value);
    else {
      // Unquoted, the value is split into words; nothing at all when it is empty.
      value.split(/[ \t\n]+/).forEach((part, k) => {
        if (k > 0) endWord();
        if (part !== '') add(part);
      });
    }
    return { end: i + match[0].length };
  };
  /** $(...) or `...`: a command's output, which this reading does not know. */
  const substitution = (i: number): number => {
    if (script[i] === '`') {
      const end = script.indexOf('`', i + 1);
      return end < 0 ? script.length : end;
    }
    let depth = 0;
    for (let k = i; k < script.length; k++) {
      if (script[k] === '(') depth++;
      else if (script[k] === ')' && --depth === 0) return k;
    }
    return script.length;
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i];
    if (c === '\\' && script[i + 1] === '\n') i++;
    else if (c === '\\') add(script[++i] ?? '');
    // >& and <& are one operator (2>&1); & alone ends a command.
    else if (c === '&' && word && /[<>]$/.test(word.text)) add(c);
    else if (c === '\n' || c === ';' || c === '&' || c === '|') endCommand();
    else if (c === ' ' || c === '\t') endWord();
    else if (c === '#' && word === undefined) {
      const end = script.indexOf('\n', i);
      i = end < 0 ? script.length : end - 1;
    } else if (c === "'") {
      const end = script.indexOf("'", i + 1);
      if (end < 0) return { commands: [], problem: 'the shell does not run this script: a quote is not closed' };
      add(script.slice(i + 1, end));
      i = end;
    } else if (c === '"') {
      add('');
      for (i++; i < script.length && script[i] !== '"'; i++) {
        if (script[i] === '\\' && script[i + 1] === '\n') i++;
        else if (script[i] === '\\' && '"\\$`'.includes(script[i + 1] ?? '')) add(script[++i]);
        else if (script[i] === '$' && script[i + 1] === '(') {
          const end = substitution(i + 1);
          add(script.slice(i, end + 1), ['$(...)']);
          i = end;
        } else if (script[i] === '$') {
          const reference = parameter(i, true);
          if (reference) i = reference.end - 1;
          else add('$');
        } else add(script[i]);
      }
      if (i >= script.length) return { commands: [], problem: 'the shell does not run this script: a quote is not closed' };
    } else if ((c === '$' && script[i + 1] === '(') || c === '`') {
      const end = substitution(c === '$' ? i + 1 : i);
      add(script.slice(i, end + 1), ['$(...)']);
      i = end;
    } else if (c === '$') {
      const reference = parameter(i, false);
      if (reference) i = reference.end - 1;
      else add(c);
    } else add(c);
  }
  endCommand();
  return { commands: commands.filter((words) => words.length > 0).map(withoutRedirections) };
}

function withoutRedirections(words: Word[]): Word[] {
  const kept: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const redirection = REDIRECTION.exec(words[i].text);
    if (!redirection) kept.push(words[i]);
    else if (redirection[2] === '') i++;
  }
  return kept;
}
