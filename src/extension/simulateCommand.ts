import * as vscode from 'vscode';
import type { TraceReport } from '../report/contract';
import { nodeNames } from '../report/format';
import { isFailureKind, isInterventionKind, PLACEMENTS, type Intervention, type Placement } from '../sim/scenario';
import { requestChoices, requestScenarioFile, timingFiles, type SimulationRequest } from '../workspace/guidedChoices';
import { afterTheEnd } from '../report/afterTheEnd';
import { readScenarioFile, SCENARIO_FILE_SUFFIX, scenarioRun, writeScenarioFile } from '../workspace/scenarioFile';
import type { ClusterText, SimulationChoices } from '../workspace/simulationChoices';
import type { FindingRef, RunRef, WebviewMessage } from '../../webview/protocol';
import { isSimulateArguments, relativeName } from './choices';
import type { Config } from './config';
import { askSimulation } from './guidedPicks';
import { runTimingLabel, scenarioKey, TimelinePanels } from './timelinePanel';
import type { SimulationRun } from './worker/simulationRunner';
import type { WorkspaceIndex } from './workspaceIndex';

/** A run that lasts longer than this shows a progress notification, with Cancel. */
const PROGRESS_DELAY_MS = 300;

/** The request kept in a panel (checked on receipt like any message), back in the workspace's terms. */
function refRequest(ref: RunRef): SimulationRequest | undefined {
  if (!isFailureKind(ref.failure)) return undefined;
  if (ref.placement !== undefined && !(PLACEMENTS as readonly string[]).includes(ref.placement)) return undefined;
  const interventions = (ref.interventions ?? []).filter((i) => isInterventionKind(i.kind)).map((i) => (
    i.kind === 'force-delete' || i.kind === 'delete' ? { kind: i.kind, target: i.target ?? '', atMs: i.atMs } : { kind: i.kind, atMs: i.atMs }) as Intervention);
  return {
    failure: ref.failure, targets: ref.targets, recoverAfterMs: ref.recoverAfterMs, interventions, durationMs: ref.durationMs,
    kubernetesVersion: ref.kubernetesVersion, profile: ref.profile, placement: ref.placement as Placement | undefined, seed: ref.seed,
  };
}

/**
 * "Simulate Node Failure…" (guided picks), "Run Again" (the last run, with the files' current
 * text), "Save Scenario As…" and "Run Scenario File": each run opens or refreshes the timeline
 * panel of its scenario.
 */
export function registerSimulateCommand(context: vscode.ExtensionContext, index: WorkspaceIndex, config: Config, log: vscode.LogOutputChannel): void {
  let last: RunRef | undefined;
  /** The report of `last`, once it ran: Save Scenario As… lists the files its timing came from. */
  let lastReport: TraceReport | undefined;
  /** A guided run (or a CodeLens'): its choices are in the reference; a scenario file's run reads the file again. */
  const run = async (ref: RunRef) => {
    if (ref.scenario) return runScenario(vscode.Uri.parse(ref.scenario));
    const request = refRequest(ref);
    if (!request) return;
    const documents = ref.documents === undefined ? [ref.document] : ref.documents.length > 0 ? ref.documents : undefined;
    await execute(ref, requestChoices(request, documents));
  };
  const execute = async (ref: RunRef, choices: SimulationChoices) => {
    last = ref;
    lastReport = undefined;
    // Run Again and Save Scenario As… show in the command palette from now on.
    void vscode.commands.executeCommand('setContext', 'kubeFailureSim.hasRun', true);
    try {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(ref.document));
      const documents = choices.documents;
      const folder = vscode.workspace.getWorkspaceFolder(document.uri)?.uri.toString();
      const names = (documents ?? [ref.document]).map((d) => relativeName(folder, d));
      const source = ref.scenario ? relativeName(folder, ref.scenario) : names.join(', ');
      // The simulation worker runs it; a new run of the same timeline supersedes this one.
      const delayMs = config.testingSimulationDelayMs;
      const started = Date.now();
      log.info(`Simulating ${ref.failure} of ${ref.targets.join(', ') || 'the first workload\'s node'}: ${source}${delayMs ? ` (worker kept busy ${delayMs} ms first, for tests)` : ''}`);
      const simulation = await index.simulate(document, scenarioKey(ref, ''), choices, names, delayMs);
      const report = await withProgress(`Simulating ${ref.failure}: ${source}`, simulation, log);
      log.info(`Simulation of ${source}: ${report ? 'done' : 'stopped'} after ${Date.now() - started} ms`);
      if (!report) return;
      if (last === ref) lastReport = report;
      // A scenario file's own duration may end before what it schedules (a guided run lasts long enough).
      for (const line of afterTheEnd(report.scenario)) void vscode.window.showWarningMessage(`${source}: ${line}.`);
      const findings = await workloadFindings(index, documents ?? [ref.document]);
      const timing = runTimingLabel(ref);
      panels.show({ type: 'showTrace', title: `${ref.failure} of ${nodeNames(report.summary.failedNodes)}: ${source}${timing ? ` (${timing})` : ''}`, report, run: ref, findings });
    } catch (error) {
      log.error('Simulation failed', error);
      void vscode.window.showErrorMessage('The simulation failed; the log has the details.');
    }
  };
  /**
   * A scenario file, as the CLI's simulate --scenario runs it: the host reads the file, its
   * manifests and its cluster file; src/workspace turns the file into choices and timing
   * settings (scenarioRun) that replace the editor's settings; the worker parses and simulates.
   */
  const runScenario = async (uri: vscode.Uri) => {
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(uri);
    } catch {
      void vscode.window.showErrorMessage(`The scenario file ${uri.path} cannot be read.`);
      return;
    }
    const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.toString();
    const { scenario, problems } = readScenarioFile(document.getText());
    if (!scenario) {
      void vscode.window.showErrorMessage(`${relativeName(folder, uri.toString())}:${problems[0].range.start.line + 1}: ${problems[0].message}`);
      return;
    }
    const manifests = scenario.manifests.map((m) => vscode.Uri.joinPath(uri, '..', m));
    const stats = await Promise.all(manifests.map((m) => stat(m)));
    const missing = manifests.find((_, i) => !stats[i]);
    if (missing) {
      void vscode.window.showErrorMessage(`The scenario's manifest ${missing.path} does not exist.`);
      return;
    }
    let cluster: ClusterText | undefined;
    if (scenario.cluster !== undefined) {
      const clusterUri = vscode.Uri.joinPath(uri, '..', scenario.cluster);
      const texts = await readYaml(clusterUri);
      if (typeof texts === 'string') {
        void vscode.window.showErrorMessage(`The scenario's cluster ${clusterUri.path} ${texts}.`);
        return;
      }
      cluster = { texts, source: relativeName(folder, clusterUri.toString()) };
    }
    const { choices, runs } = scenarioRun(scenario, relativeName(folder, uri.toString()), cluster);
    if (runs > 1) void vscode.window.showInformationMessage(`The timeline shows the first of the scenario's ${runs} runs (seed ${choices.seed}); simulate --scenario reports the statistics over all of them.`);
    // A folder among the manifests: the whole workspace folder, as the CLI walks it.
    const folderGiven = stats.some((s) => s!.type === vscode.FileType.Directory);
    const files = manifests.filter((_, i) => stats[i]!.type !== vscode.FileType.Directory).map((m) => m.toString());
    const ref: RunRef = {
      document: files[0] ?? manifests[0].toString(), documents: folderGiven ? [] : files, scenario: uri.toString(),
      failure: choices.failure, targets: scenario.targets ?? [], kubernetesVersion: scenario.kubernetesVersion, profile: scenario.profile,
    };
    await execute(ref, { ...choices, documents: folderGiven ? undefined : files });
  };
  const panels = new TimelinePanels(context.extensionUri, (ref) => void run(ref), (ref, message) => void revealObject(index, ref, message), (finding) => void showFinding(finding));

  context.subscriptions.push(
    panels,
    vscode.commands.registerCommand('kubeFailureSim.simulate', async (given?: unknown) => {
      // From a CodeLens, a hover link or the status bar: the workload is given, and its node's power-off (the default scenario) runs at once.
      if (isSimulateArguments(given) && given.target) {
        const uri = given.uri ?? vscode.window.activeTextEditor?.document.uri.toString();
        if (uri) await run({ document: uri, failure: 'power-off', targets: [given.target], interventions: [] });
        return;
      }
      const uri = given instanceof vscode.Uri ? given : undefined;
      const document = uri ? await vscode.workspace.openTextDocument(uri) : manifestEditor(index)?.document;
      if (!document) {
        void vscode.window.showInformationMessage('Open a Kubernetes manifest to simulate a node failure.');
        return;
      }
      const model = await index.summary(document);
      if (!model) return;
      if (model.workloads.length === 0) {
        void vscode.window.showWarningMessage('This file has no Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob or Pod to simulate.');
        return;
      }
      const request = await askSimulation(model.workloads, model.nodes, config.values);
      if (request) await run({ document: document.uri.toString(), ...request, durationMs: undefined });
    }),
    vscode.commands.registerCommand('kubeFailureSim.compare', () => panels.compareActive()),
    vscode.commands.registerCommand('kubeFailureSim.rerun', async () => {
      if (last) await run(last);
      else void vscode.window.showInformationMessage('Nothing to run again yet: use Simulate Node Failure… first.');
    }),
    vscode.commands.registerCommand('kubeFailureSim.saveScenario', async () => {
      if (last?.scenario) {
        const file = vscode.Uri.parse(last.scenario);
        try {
          await vscode.window.showTextDocument(file);
          void vscode.window.showInformationMessage(`The last run came from the scenario file ${relativeName(vscode.workspace.getWorkspaceFolder(file)?.uri.toString(), last.scenario)}; it is opened.`);
        } catch {
          void vscode.window.showInformationMessage(`The last run came from the scenario file ${file.fsPath}, which is gone; run a simulation again to save its choices.`);
        }
        return;
      }
      const request = last && refRequest(last);
      if (!last || !request) {
        void vscode.window.showInformationMessage('Run a simulation first; its choices are what gets saved.');
        return;
      }
      const manifest = vscode.Uri.parse(last.document);
      const base = manifest.path.slice(manifest.path.lastIndexOf('/') + 1).replace(/\.ya?ml$/i, '');
      const target = await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.joinPath(manifest, '..', `${base}${SCENARIO_FILE_SUFFIX}`),
        filters: { 'Failure scenario': ['yaml', 'yml'] }, title: 'Save the scenario as',
      });
      if (!target) return;
      const scenario = requestScenarioFile(base, relativePath(target, manifest), request);
      // The editor's run saw the whole folder; the CLI reads what the file lists. The files the
      // timing came from are listed too, and a version the folder gave is written down.
      const folder = vscode.workspace.getWorkspaceFolder(manifest);
      if (lastReport && folder) {
        const configs = timingFiles(lastReport.timing).map((name) => vscode.Uri.joinPath(folder.uri, name)).filter((uri) => uri.toString() !== manifest.toString());
        scenario.manifests = [...new Set([...scenario.manifests, ...configs.map((uri) => relativePath(target, uri))])];
        if (!scenario.kubernetesVersion) scenario.kubernetesVersion = lastReport.scenario.k8sVersion;
      }
      const text = writeScenarioFile(scenario);
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
      await vscode.window.showTextDocument(target);
    }),
    vscode.commands.registerCommand('kubeFailureSim.runScenario', async (uri?: vscode.Uri) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri;
      if (target) await runScenario(target);
    }),
  );
}

/**
 * Waits for a run; a run that lasts longer than PROGRESS_DELAY_MS shows a notification whose
 * Cancel stops it. The report, or undefined when the run was stopped or could not run (the user
 * is told why).
 */
async function withProgress(title: string, simulation: SimulationRun, log: vscode.LogOutputChannel): Promise<TraceReport | undefined> {
  const timer = setTimeout(() => {
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (_progress, token) => {
      const subscription = token.onCancellationRequested(() => simulation.cancel());
      await simulation.outcome;
      subscription.dispose();
    });
  }, PROGRESS_DELAY_MS);
  const outcome = await simulation.outcome.finally(() => clearTimeout(timer));
  switch (outcome.kind) {
    case 'done': return outcome.report;
    case 'superseded': case 'cancelled': return undefined;
    case 'over-budget': case 'input':
      void vscode.window.showErrorMessage(outcome.message);
      return undefined;
    case 'failed':
      log.error('Simulation failed', outcome.message);
      void vscode.window.showErrorMessage('The simulation failed; the log has the details.');
      return undefined;
  }
}

/**
 * The manifest the user means: the active editor's YAML, else (the focus is on a timeline, the
 * walkthrough or a panel) the first visible editor that shows a Kubernetes manifest.
 */
export function manifestEditor(index: WorkspaceIndex): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  if (active?.document.languageId === 'yaml') return active;
  return vscode.window.visibleTextEditors.find((e) => e.document.languageId === 'yaml' && index.isManifest(e.document));
}

/** The checks' findings about the run's workloads, for the summary's "What would shorten it". */
async function workloadFindings(index: WorkspaceIndex, documents: readonly string[]): Promise<FindingRef[]> {
  const findings: FindingRef[] = [];
  for (const uri of documents) {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    for (const f of (await index.analyse(document))?.findings ?? []) {
      if (!f.object) continue;
      findings.push({
        index: findings.length, ruleId: f.ruleId, severity: f.severity, message: f.message, object: f.object,
        fixes: (f.fixes ?? []).map((fix) => fix.title), uri, range: f.range,
      });
    }
  }
  return findings;
}

async function stat(uri: vscode.Uri): Promise<vscode.FileStat | undefined> {
  try {
    return await vscode.workspace.fs.stat(uri);
  } catch {
    return undefined;
  }
}

/** The bytes of a YAML file, or of the YAML files under a folder (as the CLI reads --cluster; the workspace checks they are UTF-8); else why not. */
async function readYaml(uri: vscode.Uri): Promise<Uint8Array[] | string> {
  const found = await stat(uri);
  if (!found) return 'does not exist';
  const uris = found.type === vscode.FileType.Directory
    ? (await vscode.workspace.findFiles(new vscode.RelativePattern(uri, '**/*.{yaml,yml}'))).sort((a, b) => (a.path < b.path ? -1 : 1))
    : [uri];
  return Promise.all(uris.map((file) => vscode.workspace.fs.readFile(file)));
}

/** Selects a finding's range in its manifest and opens the quick fixes there. */
async function showFinding(finding: FindingRef): Promise<void> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(finding.uri));
  const { start, end } = finding.range;
  const selection = new vscode.Range(start.line, start.character, end.line, end.character);
  const editor = await vscode.window.showTextDocument(document, { viewColumn: editorColumn(document), selection });
  editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  if (finding.fixes.length > 0) await vscode.commands.executeCommand('editor.action.quickFix');
}

/** The column that already shows the document, else the first: never a second copy beside the timeline. */
function editorColumn(document: vscode.TextDocument): vscode.ViewColumn {
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === document.uri.toString())?.viewColumn ?? vscode.ViewColumn.One;
}

/** `to` relative to the folder of `from` ("web.yaml", "../apps/web.yaml"). */
function relativePath(from: vscode.Uri, to: vscode.Uri): string {
  const a = from.path.split('/').slice(0, -1);
  const b = to.path.split('/');
  let common = 0;
  while (common < a.length && common < b.length - 1 && a[common] === b[common]) common++;
  return [...a.slice(common).map(() => '..'), ...b.slice(common)].join('/');
}

/** Shows the YAML of the workload the user clicked in the timeline (a pod: its workload's). */
async function revealObject(index: WorkspaceIndex, ref: RunRef | undefined, message: Extract<WebviewMessage, { type: 'reveal' }>): Promise<void> {
  const { kind, name, namespace } = message.object;
  const candidates = [...(ref?.documents ?? []), ...(ref ? [ref.document] : [])].map((d) => vscode.Uri.parse(d));
  for (const editor of vscode.window.visibleTextEditors) candidates.push(editor.document.uri);
  const seen = new Set<string>();
  for (const uri of candidates) {
    if (seen.has(uri.toString())) continue;
    seen.add(uri.toString());
    const document = await vscode.workspace.openTextDocument(uri);
    const range = await index.locate(document, { kind, name, namespace });
    if (!range) continue;
    const selection = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
    const editor = await vscode.window.showTextDocument(document, { viewColumn: editorColumn(document), selection, preserveFocus: false });
    editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return;
  }
  void vscode.window.showInformationMessage(`${kind}/${name}${message.pod ? ` (pod ${message.pod})` : ''} is not in the open manifests.`);
}
