/** A file read up to its typed model: parse, the Kubernetes objects, the model, and the problems found on the way. */
import { buildModel, type ManifestModel } from './model';
import { extractObjects, type ManifestObject } from './objects';
import { decodeUtf8 } from './decode';
import { formatCount } from './formatCount';
import { ManifestParser, unparsedFile, type ParsedFile } from './parseFile';
import { SYNTAX_ERROR, TEMPLATE_DETECTED, type ManifestProblem } from './problem';

export interface ReadManifest {
  parsed: ParsedFile;
  objects: ManifestObject[];
  model: ManifestModel;
  /** Problems of the objects and their fields (the parser's own are in `parsed.problems`). */
  problems: ManifestProblem[];
}

/** Pass the same parser for successive versions of one file: only changed documents are parsed again. */
export function readManifestText(text: string, parser: ManifestParser = new ManifestParser()): ReadManifest {
  const parsed = parser.parse(text);
  const { objects, problems } = extractObjects(parsed);
  const model = buildModel(objects, problems);
  model.unreadInput = parsed.problems.some((p) => (p.ruleId === SYNTAX_ERROR && p.severity === 'error') || p.ruleId === TEMPLATE_DETECTED);
  return { parsed, objects, model, problems };
}

/** A file as bytes: UTF-8 is read as text; anything else is one KFS090 at the first invalid byte, and nothing of it is analysed. */
export function readManifestBytes(bytes: Uint8Array, parser: ManifestParser = new ManifestParser()): ReadManifest {
  const decoded = decodeUtf8(bytes);
  if (decoded.invalidAt === undefined) return readManifestText(decoded.text, parser);
  return notUtf8Read(decoded.text, { offset: decoded.invalidAt, byte: decoded.invalidByte!, byteOffset: decoded.invalidByteOffset! });
}

/** Where a file's bytes stop being UTF-8: `offset` in the text as decoded, the byte and its offset in the file. */
export interface NotUtf8 {
  offset: number;
  byte: number;
  byteOffset: number;
}

/** A file whose bytes are not UTF-8 (an editor decoded them its own way): one KFS090 at `offset`, nothing of it analysed. */
export function notUtf8Read(text: string, { offset, byte, byteOffset }: NotUtf8): ReadManifest {
  const hex = `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  const parsed = unparsedFile(text, offset, `Not UTF-8 text: byte ${hex} at offset ${formatCount(byteOffset)} is not valid UTF-8, and kubectl and the API server accept only UTF-8; nothing in this file was analysed. Save it as UTF-8 (or it is not a manifest at all).`);
  return { parsed, objects: [], model: { ...buildModel([], []), unreadInput: true }, problems: [] };
}
