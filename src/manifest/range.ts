/** 0-based line and UTF-16 character offset, as in LSP and the VS Code API. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** A range in a document of a workspace (a file path in the CLI, a URI in the editor). */
export interface SourceLocation {
  uri: string;
  range: Range;
}
