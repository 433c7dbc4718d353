import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_FILE_BYTES } from '../manifest/limits';
import { byName, isSkipped, isYamlFile } from '../workspace/listedFiles';
import { Workspace, type WorkspaceSettings } from '../workspace/workspace';

export interface InputFile {
  /** As shown to the user: relative to the working directory when possible; `<stdin>` for `-`. */
  displayPath: string;
  /** Undefined for standard input. */
  absolutePath?: string;
}

export const STDIN_NAME = '<stdin>';

/** Reads standard input whole; tests pass their own. */
export type StdinReader = () => string | Uint8Array;

export class FileError extends Error {}

const TOO_LARGE = `larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB; not analysed`;

/**
 * Reads until the end, or stops one byte past `limit` (undefined then): a pipe from `yes` or a
 * device such as /dev/zero never ends, and its size from stat is 0.
 */
export function readBounded(fd: number, limit: number): Buffer | undefined {
  const chunks: Buffer[] = [];
  const chunk = Buffer.allocUnsafe(1 << 16);
  let total = 0;
  for (;;) {
    let read: number;
    try {
      read = fs.readSync(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A non-blocking standard input has nothing yet: wait a little and try again.
      if (code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      if (code === 'EOF') break;
      throw error;
    }
    if (read === 0) break;
    total += read;
    if (total > limit) return undefined;
    chunks.push(Buffer.from(chunk.subarray(0, read)));
  }
  return Buffer.concat(chunks, total);
}

export const readProcessStdin: StdinReader = () => {
  const bytes = readBounded(0, MAX_FILE_BYTES);
  if (!bytes) throw new FileError(`standard input is ${TOO_LARGE}`);
  return bytes;
};

/** Files named on the command line, with directories walked for .yaml and .yml files (sorted, hidden entries skipped). */
export function collectFiles(paths: string[], cwd = process.cwd()): { files: InputFile[]; errors: string[] } {
  const files: InputFile[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  const add = (absolutePath: string) => {
    // A file reached twice (named twice, or through a symbolic link) is read once.
    let real = absolutePath;
    try {
      real = fs.realpathSync(absolutePath);
    } catch {
      // Reading it will say what is wrong.
    }
    if (seen.has(real)) return;
    seen.add(real);
    const relative = path.relative(cwd, absolutePath);
    files.push({ absolutePath, displayPath: relative && !relative.startsWith('..') ? relative : absolutePath });
  };
  // Real paths of the folders walked: a symbolic link back up the tree is walked once.
  const walked = new Set<string>();
  const walk = (directory: string) => {
    let entries: fs.Dirent[];
    try {
      // A folder already walked is not read again.
      const real = fs.realpathSync(directory);
      if (walked.has(real)) return;
      walked.add(real);
      entries = fs.readdirSync(directory, { withFileTypes: true });
    } catch (error) {
      errors.push(`cannot read directory ${directory}: ${(error as Error).message}`);
      return;
    }
    entries.sort(byName);
    for (const entry of entries) {
      if (isSkipped(entry.name)) continue;
      const full = path.join(directory, entry.name);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        // Followed, as kubectl apply -R does.
        try {
          const target = fs.statSync(full);
          isDirectory = target.isDirectory();
          isFile = target.isFile();
        } catch (error) {
          const loop = (error as NodeJS.ErrnoException).code === 'ELOOP';
          if (isYamlFile(entry.name)) errors.push(`${full} is ${loop ? 'a loop of symbolic links' : 'a symbolic link to nothing'}; skipped`);
          continue;
        }
      }
      if (isDirectory) walk(full);
      else if (isFile && isYamlFile(entry.name)) add(full);
    }
  };
  for (const given of paths) {
    // An empty path would resolve to the current folder and read every manifest in it.
    if (given === '') {
      errors.push('an empty path names no file or folder (use . for the current folder)');
      continue;
    }
    if (given === '-') {
      if (!files.some((f) => f.absolutePath === undefined)) files.push({ displayPath: STDIN_NAME });
      continue;
    }
    const absolute = path.resolve(cwd, given);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(absolute);
    } catch (error) {
      errors.push(statProblem(error, given));
      continue;
    }
    if (stat.isDirectory()) walk(absolute);
    else add(absolute);
  }
  return { files, errors };
}

/** Why a path given on the command line cannot be read, in the words of a shell. */
function statProblem(error: unknown, given: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ELOOP' ? `a loop of symbolic links: ${given}` : code === 'EACCES' ? `permission denied: ${given}` : `no such file or directory: ${given}`;
}

/** Reads a file's bytes (the workspace checks they are UTF-8); throws FileError for unreadable or oversized files. */
export function readText(file: InputFile, readStdin: StdinReader = readProcessStdin): string | Uint8Array {
  if (file.absolutePath === undefined) {
    let text: string | Uint8Array;
    try {
      text = readStdin();
    } catch (error) {
      if (error instanceof FileError) throw error;
      throw new FileError(`cannot read standard input: ${(error as Error).message}`);
    }
    if (text.length > MAX_FILE_BYTES) throw new FileError(`standard input is ${TOO_LARGE}`);
    return text;
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file.absolutePath);
  } catch (error) {
    throw new FileError(statProblem(error, file.displayPath));
  }
  if (stat.size > MAX_FILE_BYTES) throw new FileError(`${file.displayPath} is ${TOO_LARGE}`);
  let bytes: Buffer | undefined;
  // A named pipe without a writer would block the open for good; opened non-blocking, it reads as empty.
  const pipe = stat.isFIFO();
  try {
    const fd = fs.openSync(file.absolutePath, pipe ? fs.constants.O_RDONLY | fs.constants.O_NONBLOCK : 'r');
    try {
      bytes = readBounded(fd, MAX_FILE_BYTES);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    throw new FileError(`cannot read ${file.displayPath}: ${(error as Error).message}`);
  }
  if (!bytes) throw new FileError(`${file.displayPath} is ${TOO_LARGE}`);
  if (pipe && bytes.length === 0) throw new FileError(`${file.displayPath} is a pipe and nothing was written to it`);
  return bytes;
}

export interface LoadedWorkspace {
  workspace: Workspace;
  /** The files read, in order; a file's uri in the workspace is its display path. */
  files: InputFile[];
  /** Files that could not be read, as messages. */
  errors: string[];
}

/** One CLI run is one workspace: every file named, each a document, named by its display path. */
export function loadWorkspace(paths: string[], settings: WorkspaceSettings, cwd = process.cwd(), readStdin?: StdinReader): LoadedWorkspace {
  const { files, errors } = collectFiles(paths, cwd);
  const workspace = new Workspace(settings);
  const read: InputFile[] = [];
  for (const file of files) {
    try {
      workspace.setDocument(file.displayPath, readText(file, readStdin));
      read.push(file);
    } catch (error) {
      errors.push(error instanceof FileError ? error.message : internalError(`reading ${file.displayPath}`, error));
    }
  }
  return { workspace, files: read, errors };
}

/**
 * The missing directories above a file, made one by one from the deepest that exists: Node's
 * recursive mkdir loops for ever under /proc, and names a file in the way as EEXIST.
 */
export function makeParentDirectories(file: string): void {
  const missing: string[] = [];
  for (let dir = path.dirname(file); !fs.existsSync(dir) && path.dirname(dir) !== dir; dir = path.dirname(dir)) missing.push(dir);
  for (const dir of missing.reverse()) fs.mkdirSync(dir);
}

export function internalError(doing: string, error: unknown): string {
  return `internal error while ${doing} (please report it): ${(error as Error).stack ?? String(error)}`;
}
