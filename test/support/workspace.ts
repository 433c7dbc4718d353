/** Tests reach the analysis the way the front ends do: through a Workspace. */
import { Workspace, type WorkspaceSettings } from '../../src/workspace/workspace';

/** Analyses `text` as the document "main.yaml" of a workspace that also holds `others` (other.yaml, other2.yaml, ...). */
export function analyse(text: string | Uint8Array, others: string[] = [], settings: WorkspaceSettings = { overrides: [] }) {
  const workspace = new Workspace(settings);
  others.forEach((other, i) => workspace.setDocument(`other${i || ''}.yaml`, other));
  workspace.setDocument('main.yaml', text);
  const analysis = workspace.analyse('main.yaml');
  return { ...analysis, model: analysis.read.model, objects: analysis.read.objects };
}
