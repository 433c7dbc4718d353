/** Where a command writes; the CLI passes process streams, tests collect the text. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

export function collectingOutput(): Output & { out: string; err: string } {
  const output = {
    out: '',
    err: '',
    stdout(text: string) {
      output.out += text;
    },
    stderr(text: string) {
      output.err += text;
    },
  };
  return output;
}
