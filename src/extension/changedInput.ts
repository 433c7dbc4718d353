/**
 * Whether an edit concerns a timeline's run: the run reads the manifests and cluster files of its
 * document's workspace folder (the workloads of some of them), or, outside a folder, its documents
 * alone; a scenario run also reads its scenario file. URIs are strings, as RunRef keeps them.
 */
import type { RunRef } from '../../webview/protocol';

const READ = /\.(ya?ml|json)$/i;

/**
 * `folder`: the URI of the workspace folder of the run's document, undefined outside any folder;
 * `isManifest`: whether the changed file is one the folder's run reads (Kubernetes objects or a
 * kustomization), asked only of the folder's other files: editing notes.json changes no run.
 */
export function runReads(run: RunRef, changed: string, folder: string | undefined, isManifest: () => boolean): boolean {
  if (!READ.test(changed)) return false;
  if (changed === run.scenario || changed === run.document || run.documents?.includes(changed)) return true;
  return folder !== undefined && changed.startsWith(folder.endsWith('/') ? folder : `${folder}/`) && isManifest();
}
