/** Where a command reads standard input and writes; the CLI passes process streams, tests collect the text. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Standard input, whole (for the path `-`); the process's when absent. */
  readStdin?(): string;
}

export function collectingOutput(stdin?: string): Output & { out: string; err: string } {
  const output = {
    out: '',
    err: '',
    readStdin: stdin === undefined ? undefined : () => stdin,
    stdout(text: string) {
      output.out += text;
    },
    stderr(text: string) {
      output.err += text;
    },
  };
  return output;
}

/**
 * Control characters and bidirectional overrides from manifests, written as \u escapes: a name
 * such as "\u001b[1A\u001b[2K" would move the terminal's cursor and erase the line above in a CI
 * log. Tabs and line ends stay. In JSON output such a character can only be inside a string,
 * where the escape is the same value.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The same output with everything written made terminalSafe. */
export function safeOutput(out: Output): Output {
  return { ...out, stdout: (text) => out.stdout(terminalSafe(text)), stderr: (text) => out.stderr(terminalSafe(text)) };
}
