/** 0-based line and UTF-16 character offset, as in LSP and the VS Code API. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}
