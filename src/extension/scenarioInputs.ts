/**
 * What a scenario file's run reads, as `simulate --scenario` reads it: the files it lists (open
 * ones as the editor has them, folders walked as the CLI walks them) and its cluster file. Run
 * Scenario File and the scenario file's diagnostics read them alike.
 */
import * as vscode from 'vscode';
import { MAX_FILE_BYTES } from '../manifest/limits';
import { listFiles } from '../workspace/listedFiles';
import type { ScenarioFile } from '../workspace/scenarioFile';
import type { ClusterText } from '../workspace/simulationChoices';
import { relativeName } from './choices';
import { EDITOR_FS } from './editorFs';
import type { ListedFile } from './worker/protocol';

/** The scenario's files and cluster, or why they cannot be read (a sentence to follow the file's name and a colon). */
export async function readScenarioInputs(uri: vscode.Uri, scenario: ScenarioFile): Promise<{ files: ListedFile[]; cluster?: ClusterText } | { problem: string }> {
  const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.toString();
  const listed = await listFiles(scenario.manifests.map((m) => vscode.Uri.joinPath(uri, '..', m).toString()), EDITOR_FS);
  if ('missing' in listed) return { problem: `the scenario's manifest ${relativeName(folder, listed.missing)} does not exist` };
  let cluster: ClusterText | undefined;
  if (scenario.cluster !== undefined) {
    const clusterUri = vscode.Uri.joinPath(uri, '..', scenario.cluster).toString();
    const clusterFiles = await listFiles([clusterUri], EDITOR_FS);
    const texts = 'missing' in clusterFiles ? 'does not exist' : await readListed(clusterFiles.files);
    if (typeof texts === 'string') return { problem: `the scenario's cluster ${relativeName(folder, clusterUri)} ${texts}` };
    cluster = { texts: texts.map((f) => f.text), source: relativeName(folder, clusterUri) };
  }
  const files = await readListed(listed.files);
  if (typeof files === 'string') return { problem: files };
  if (files.length === 0) return { problem: 'the folders it lists hold no .yaml or .yml file' };
  return { files, ...(cluster ? { cluster } : {}) };
}

/** The listed files' texts: an open file's as the editor has it, else its bytes; or why one cannot be read. */
async function readListed(uris: readonly string[]): Promise<ListedFile[] | string> {
  const files: ListedFile[] = [];
  for (const uri of uris) {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri && !d.isClosed);
    if (open) {
      files.push({ uri, text: open.getText() });
      continue;
    }
    try {
      const address = vscode.Uri.parse(uri);
      if ((await vscode.workspace.fs.stat(address)).size > MAX_FILE_BYTES) return `${address.path} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`;
      files.push({ uri, text: await vscode.workspace.fs.readFile(address) });
    } catch (error) {
      return `${vscode.Uri.parse(uri).path} cannot be read (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  return files;
}
