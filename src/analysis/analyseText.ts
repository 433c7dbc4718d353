import type { ClusterConfig } from '../manifest/model/clusterConfig';
import { buildModel, type ManifestModel } from '../manifest/model';
import { extractObjects, type ManifestObject } from '../manifest/objects';
import { ManifestParser, type ParsedFile } from '../manifest/parseFile';
import type { ManifestProblem } from '../manifest/problem';
import { compareFindings, type Finding } from './finding';
import { RULES } from './rules';

/** A file read up to its typed model, before any rule runs. */
export interface ReadFile {
  parsed: ParsedFile;
  objects: ManifestObject[];
  model: ManifestModel;
  problems: ManifestProblem[];
}

export interface FileAnalysis extends ReadFile {
  findings: Finding[];
}

export interface AnalysisOptions {
  /** Pass the same parser for successive versions of one file: only changed documents are parsed again. */
  parser?: ManifestParser;
  /** Cluster configuration found in other files of the same input (kubelet settings for KFS061). */
  otherClusterConfig?: ClusterConfig;
}

export function readManifestText(text: string, parser: ManifestParser = new ManifestParser()): ReadFile {
  const parsed = parser.parse(text);
  const { objects, problems } = extractObjects(parsed);
  const model = buildModel(objects, problems);
  return { parsed, objects, model, problems };
}

/** Runs every rule over a file that has been read. */
export function checkReadFile(file: ReadFile, otherClusterConfig?: ClusterConfig): FileAnalysis {
  const findings: Finding[] = [...file.parsed.problems, ...file.problems];
  for (const rule of RULES) findings.push(...rule.check({ model: file.model, objects: file.objects, otherClusterConfig }));
  findings.sort(compareFindings);
  return { ...file, findings };
}

/** Parses a manifest file, reads its model and runs every rule. */
export function analyseText(text: string, options: AnalysisOptions = {}): FileAnalysis {
  return checkReadFile(readManifestText(text, options.parser), options.otherClusterConfig);
}

/** The cluster configuration of several files, in order. */
export function mergeClusterConfig(configs: ClusterConfig[]): ClusterConfig {
  return {
    kubelet: configs.flatMap((c) => c.kubelet),
    controllerManager: configs.flatMap((c) => c.controllerManager),
    apiServer: configs.flatMap((c) => c.apiServer),
    kubernetesVersion: configs.find((c) => c.kubernetesVersion)?.kubernetesVersion,
  };
}
