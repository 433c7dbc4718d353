/**
 * How long a container takes to stop once the kubelet kills it (SEMANTICS.md 10): its preStop
 * hook runs first, within the grace period; then SIGTERM, which a shell running as PID 1 neither
 * forwards nor acts on, nor does a PID 1 without a handler (sleep), so such a container is
 * killed only when the grace period ends.
 */
import type { Container, LifecycleHandler } from './types';

const SHELLS = /^(?:\/usr)?(?:\/bin\/)?(?:sh|bash|ash|dash|zsh)$/;
/** `sleep N` in an exec hook, the usual "let the endpoints drain" preStop. */
const SLEEP = /(?:^|[\s;&|(])sleep\s+(\d+(?:\.\d+)?)s?(?=$|[\s;&|)])/;

/**
 * The script of a container started as `sh -c SCRIPT`, the shell being PID 1 and deaf to SIGTERM:
 * neither `exec`-ing its program nor trapping TERM (`trap 'exit 0' TERM`, which a script that
 * waits with `wait` runs at once).
 */
export function shellScriptAsPid1(container: Container): string | undefined {
  const script = shellScript(container);
  if (script === undefined) return undefined;
  return execedProgram(script) !== undefined || TRAPS_TERM.test(script) || shellExecsItself(script) ? undefined : script;
}

/** The script of a container started as `sh -c SCRIPT` (or -ec, -xc: flags with -c). */
function shellScript(container: Container): string | undefined {
  const argv = [...container.command, ...container.args];
  return SHELLS.test(argv[0] ?? '') && /^-[a-z]*c[a-z]*$/.test(argv[1] ?? '') ? argv[2] ?? '' : undefined;
}

/** Control operators, a newline or a command substitution: more than one command (`2>&1` is a redirection). */
const SHELL_CONTROL = /[;|\n`]|(?<![<>])&|\$\(/;
/**
 * A script `exec` can go in front of: it starts with a command name, not a variable assignment
 * (`PORT=80 node`: exec would run a program named PORT=80), a group or subshell, or a shell
 * keyword or builtin that is not a program.
 */
const STARTS_WITH_PROGRAM = /^(?!(if|then|else|elif|fi|for|while|until|do|done|case|esac|in|function|select|time|exec|eval|export|readonly|local|set|unset|cd|source|trap|ulimit|umask|wait|shift|test|true|false|return|exit|break|continue|alias|command|builtin)(\s|$))[A-Za-z0-9_./][A-Za-z0-9_./+-]*(\s|$)/;

/** One command starting with a program's name, to which `exec ` can be prefixed. */
export function execPrefixable(script: string): boolean {
  // Quoted words are arguments, whatever they hold (nginx -g 'daemon off;').
  const trimmed = script.trim().replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, '""');
  return !SHELL_CONTROL.test(trimmed) && STARTS_WITH_PROGRAM.test(trimmed);
}

/**
 * A script of one program without redirections: bash, zsh, dash (0.5.10 on) and BusyBox ash
 * (1.28 on) run it without a fork, in place of the shell (bash's ONESHOT, dash's "[SHELL]
 * Optimize dash -c "command" to avoid a fork"), so the program gets SIGTERM itself.
 */
function shellExecsItself(script: string): boolean {
  return execPrefixable(script) && !/[<>]/.test(script);
}

/** `trap HANDLER TERM` (or SIGTERM, 15), alone or among other signals. */
const TRAPS_TERM = /(?:^|[\s;&|(])trap\s+(?:'[^']*'|"[^"]*"|\S+)(?:\s+\S+)*?\s+(?:SIG)?(?:TERM|15)\b/;

/**
 * The program the script ends by replacing the shell with (`exec cmd`, also after `;` or `&&` on
 * its last line), which then is PID 1 and gets SIGTERM itself.
 */
function execedProgram(script: string): string | undefined {
  const lines = script.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  const last = (lines.at(-1) ?? '').split(/;|&&/).map((part) => part.trim()).filter(Boolean).at(-1) ?? '';
  // `exec 2>&1` only redirects: the shell stays.
  const replaced = (command: string) => /^exec\s+(?!\d*[<>])(\S+)/.exec(command)?.[1];
  return replaced(script.trimStart()) ?? replaced(last);
}

/**
 * Programs that install no SIGTERM handler. As PID 1 of a container a process gets only the
 * signals it handles (the kernel drops the rest for a namespace's init), so `sleep 3600` or
 * `tail -f /dev/null` ignores SIGTERM and is killed when the grace period ends.
 */
const NO_TERM_HANDLER = new Set(['sleep', 'tail']);

/** The program PID 1 runs, when it is written: the command's, or the one a `sh -c` script runs in the shell's place. */
function pid1Program(container: Container): string | undefined {
  const script = shellScript(container);
  const program = script === undefined ? [...container.command, ...container.args][0]
    : shellExecsItself(script) ? script.trim().split(/\s+/)[0] : execedProgram(script);
  return program?.slice(program.lastIndexOf('/') + 1);
}

/** PID 1 is a program known to ignore SIGTERM (sleep, tail): the container stops only at SIGKILL. */
export function pid1IgnoresTerm(container: Container): boolean {
  const program = pid1Program(container);
  return program !== undefined && NO_TERM_HANDLER.has(program);
}

/** Seconds a preStop hook is known to take: a sleep handler or an exec hook that sleeps; 0 when unknown. */
export function preStopSeconds(hook: LifecycleHandler | undefined): number {
  if (!hook) return 0;
  if (hook.handler === 'sleep') return hook.sleepSeconds ?? 0;
  if (hook.handler !== 'exec') return 0;
  const match = SLEEP.exec(hook.command.join(' '));
  return match ? Number(match[1]) : 0;
}

/** The kubelet's minimumGracePeriodInSeconds: SIGTERM gets at least this long after a preStop that used up the grace. */
const MINIMUM_GRACE_AFTER_PRESTOP_MS = 2000;

/**
 * From the kill to the container's exit: its preStop, then `exitMs` for a program that stops on
 * SIGTERM, or the whole grace period for a shell as PID 1 without a preStop hook.
 */
export function containerStopMs(container: Container, graceMs: number, exitMs: number): number {
  const preStopMs = preStopSeconds(container.preStop) * 1000;
  if (preStopMs >= graceMs && preStopMs > 0) return graceMs + MINIMUM_GRACE_AFTER_PRESTOP_MS;
  if (!container.preStop && (shellScriptAsPid1(container) !== undefined || pid1IgnoresTerm(container))) return graceMs;
  return Math.min(graceMs, preStopMs + exitMs);
}
