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
