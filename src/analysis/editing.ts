/** Quick-fix edits for a workload's document. */
import type { Sourced, Workload } from '../manifest/model/types';
import type { ManifestObject } from '../manifest/objects';
import type { ReadManifest } from '../manifest/readManifest';
import type { EffectMeasure, Fix, TextEdit } from './finding';
import { DocumentEditor } from './yamlEdit';

export function editorFor(document: ReadManifest, object: ManifestObject): DocumentEditor {
  return new DocumentEditor(document.parsed.text, document.parsed.lines, object.sourceMap);
}

/** A fix from edits that could all be made (none when the text cannot be edited safely: aliases, flow scalars...). */
export function fix(title: string, edits: (TextEdit | undefined)[], options: Omit<Fix, 'title' | 'edits'> = {}): Fix[] {
  if (edits.length === 0 || edits.some((e) => e === undefined)) return [];
  return [{ title, edits: edits as TextEdit[], ...options }];
}

export const workloadEffect = (workload: Sourced<Workload>, measure: EffectMeasure): Fix['effect'] => ({ workload: { kind: workload.kind, name: workload.name, namespace: workload.namespace }, documentIndex: workload.source.documentIndex, measure });

export const outageEffect = (workload: Sourced<Workload>): Fix['effect'] => workloadEffect(workload, 'outage');
