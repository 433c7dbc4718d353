/** A file read up to its typed model: parse, the Kubernetes objects, the model, and the problems found on the way. */
import { buildModel, type ManifestModel } from './model';
import { extractObjects, type ManifestObject } from './objects';
import { ManifestParser, type ParsedFile } from './parseFile';
import type { ManifestProblem } from './problem';

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
  return { parsed, objects, model, problems };
}
