import * as vscode from 'vscode';
import type { Finding } from '../analysis/finding';
import type { TraceReport } from '../report/contract';
import { SYNTAX_ERROR } from '../manifest/problem';
import { nodeNames } from '../report/format';
import { interventionsTitle } from '../report/textReport';
import { isFailureKind, isInterventionKind, PLACEMENTS, type Intervention, type Placement } from '../sim/scenario';
import { requestChoices, requestScenarioFile, type SimulationRequest } from '../workspace/guidedChoices';
import { afterTheEnd } from '../report/afterTheEnd';
import { unrealisticTiming } from '../report/unrealisticTiming';
import { readScenarioFile, SCENARIO_FILE_SUFFIX, scenarioRun, writeScenarioFile } from '../workspace/scenarioFile';
import type { SimulationChoices } from '../workspace/simulationChoices';
import type { FindingRef, RunRef, WebviewMessage } from '../../webview/protocol';
import { isSimulateArguments, relativeName } from './choices';
import type { Config } from './config';
import { askSimulation } from './guidedPicks';
import { readScenarioInputs } from './scenarioInputs';
import { runTimingLabel, scenarioKey, TimelinePanels } from './timelinePanel';
import type { ListedFile } from './worker/protocol';
import type { SimulationRun } from './worker/simulationRunner';
import type { WorkspaceIndex } from './workspaceIndex';
import { packReport } from '../report/packedTrace';

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
  /** The report of `last`, once it ran: Save Scenario As… writes its version and preset. */
  let lastReport: TraceReport | undefined;
  /** kubeFailureSim.timing when `last` ran (a guided run; a scenario file's run has its own). */
  let lastSettings: Record<string, string> | undefined;
  /** A guided run (or a CodeLens'): its choices are in the reference; a scenario file's run reads the file again. */
  const run = async (ref: RunRef) => {
    if (ref.scenario) return runScenario(vscode.Uri.parse(ref.scenario));
    const request = refRequest(ref);
    if (!request) return;
    const documents = ref.documents === undefined ? [ref.document] : ref.documents.length > 0 ? ref.documents : undefined;
    await execute(ref, requestChoices(request, documents));
  };
  /** `files`: a scenario file's run, which reads these and nothing else of the folder. */
  const execute = async (ref: RunRef, choices: SimulationChoices, files?: ListedFile[]) => {
    last = ref;
    lastReport = undefined;
    lastSettings = Object.fromEntries(Object.entries(config.values.timing ?? {}).map(([knob, value]) => [knob, String(value)]));
    // Run Again and Save Scenario As… show in the command palette from now on; the walkthrough's step is done.
    void vscode.commands.executeCommand('setContext', 'kubeFailureSim.hasRun', true);
    void vscode.commands.executeCommand('setContext', 'kubeFailureSim.canRerun', true);
    try {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(ref.document));
      const documents = files ? files.map((f) => f.uri) : choices.documents;
      const folder = vscode.workspace.getWorkspaceFolder(document.uri)?.uri.toString();
      const names = (documents ?? [ref.document]).map((d) => relativeName(folder, d));
      const source = ref.scenario ? relativeName(folder, ref.scenario) : names.join(', ');
      // The simulation worker runs it; a new run of the same timeline supersedes this one.
      const delayMs = config.testingSimulationDelayMs;
      const started = Date.now();
      log.info(`Simulating ${ref.failure} of ${ref.targets.join(', ') || 'the first workload\'s node'}: ${source}${delayMs ? ` (worker kept busy ${delayMs} ms first, for tests)` : ''}`);
      const simulation = await index.simulate(document, scenarioKey(ref, ''), choices, names, files, delayMs);
      const report = await withProgress(`Simulating ${ref.failure}: ${source}`, simulation, log);
      log.info(`Simulation of ${source}: ${report ? 'done' : 'stopped'} after ${Date.now() - started} ms`);
      if (!report) return;
      if (last === ref) lastReport = report;
      // A scenario file's own duration may end before what it schedules (a guided run lasts long enough).
      for (const line of [...afterTheEnd(report.scenario), ...unrealisticTiming(report.timing)]) void vscode.window.showWarningMessage(`${source}: ${line}.`);
      const findings = await workloadFindings(index, documents ?? [ref.document]);
      const timing = runTimingLabel(ref);
      panels.show({ type: 'showTrace', title: `${ref.failure} of ${nodeNames(report.summary.failedNodes)}${interventionsTitle(ref.interventions)}: ${source}${timing ? ` (${timing})` : ''}`, report: packReport(report), run: ref, findings });
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
    const name = relativeName(folder, uri.toString());
    const { scenario, problems } = readScenarioFile(document.getText());
    if (!scenario) {
      // Every problem is in the Problems panel as you type; the first is shown where it is written.
      const [first] = problems;
      const more = problems.length > 1 ? ` (${problems.length - 1} more in the Problems panel)` : '';
      const choice = await vscode.window.showErrorMessage(`${name}:${first.range.start.line + 1}: ${first.message}${more}`, 'Show');
      if (choice === 'Show') await vscode.window.showTextDocument(document, { selection: new vscode.Range(first.range.start.line, first.range.start.character, first.range.end.line, first.range.end.character) });
      return;
    }
    // Only what the file lists, read as simulate --scenario reads it (open files as the editor has them).
    const inputs = await readScenarioInputs(uri, scenario);
    if ('problem' in inputs) {
      void vscode.window.showErrorMessage(`${name}: ${inputs.problem}.`);
      return;
    }
    const { files, cluster } = inputs;
    const { choices, runs } = scenarioRun(scenario, name, cluster);
    if (runs > 1) void vscode.window.showInformationMessage(`The timeline shows the first of the scenario's ${runs} runs (seed ${choices.seed}); simulate --scenario reports the statistics over all of them.`);
    const ref: RunRef = {
      document: files[0].uri, documents: files.map((f) => f.uri), scenario: uri.toString(),
      failure: choices.failure, targets: scenario.targets ?? [], kubernetesVersion: scenario.kubernetesVersion, profile: scenario.profile,
    };
    await execute(ref, choices, files);
  };
  const panels = new TimelinePanels(context.extensionUri, (ref) => void run(ref), (ref, message) => void revealObject(index, ref, message), (finding) => void showFinding(index, finding), (ref) => {
    // After a window reload the palette's Run Again and Save Scenario As… take up a restored timeline's run.
    last ??= ref;
    void vscode.commands.executeCommand('setContext', 'kubeFailureSim.canRerun', true);
  }, log, (document) => index.isManifest(document));

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
        // A workload may be in a document the YAML parser could not read: that is what to fix.
        const syntax = (await index.analyse(document))?.findings.find((f) => f.ruleId === SYNTAX_ERROR && f.severity === 'error');
        void vscode.window.showWarningMessage(syntax
          ? `Line ${syntax.range.start.line + 1}: ${syntax.message} No workload could be read from this file: fix the YAML first.`
          : 'This file has no Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob or Pod to simulate.');
        return;
      }
      const request = await askSimulation(model.workloads, model.nodes, config.values, model.folderVersion, model.unreachableTolerations);
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
      // A scenario names its manifests by path: one never saved has none yet.
      if (manifest.scheme === 'untitled') {
        void vscode.window.showInformationMessage(`${manifest.path} is not saved yet: save it to a file first, then run the simulation again, so that the scenario can name it.`);
        return;
      }
      const base = manifest.path.slice(manifest.path.lastIndexOf('/') + 1).replace(/\.ya?ml$/i, '');
      const target = await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.joinPath(manifest, '..', `${base}${SCENARIO_FILE_SUFFIX}`),
        filters: { 'Failure scenario': ['yaml', 'yml'] }, title: 'Save the scenario as',
      });
      if (!target) return;
      // The editor's run read the whole folder; the CLI reads what the file lists: the files the
      // run read besides the manifest are listed too, and the settings it ran with are written down.
      const context = (await index.contextFiles(await vscode.workspace.openTextDocument(manifest))) ?? [];
      const ran = lastReport && lastSettings && { k8sVersion: lastReport.scenario.k8sVersion, profile: lastReport.scenario.profile, timing: lastSettings };
      const scenario = requestScenarioFile(base, [manifest, ...context.map((file) => vscode.Uri.parse(file.uri))].map((uri) => relativePath(target, uri)), request, ran);
      const text = writeScenarioFile(scenario);
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
      await vscode.window.showTextDocument(target);
      // The CLI simulates every workload of the files a scenario lists; the editor's run simulated the manifest's alone.
      const alsoSimulated = context.filter((file) => file.workloads > 0);
      if (alsoSimulated.length > 0) {
        const names = alsoSimulated.map((file) => relativePath(target, vscode.Uri.parse(file.uri))).join(', ');
        void vscode.window.showInformationMessage(`The scenario lists ${names} for the objects and settings the run read; ${alsoSimulated.length === 1 ? 'it holds' : 'they hold'} workloads too, which the scenario's run simulates beside the manifest's.`);
      }
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

/**
 * Selects a finding's range in its manifest and opens the quick fixes there. The text may have
 * changed since the run: the finding is looked up again in the current text (same rule and
 * object, the nearest to where it was).
 */
async function showFinding(index: WorkspaceIndex, finding: FindingRef): Promise<void> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(finding.uri));
  const sameObject = (f: Finding) => f.ruleId === finding.ruleId && f.object?.kind === finding.object.kind && f.object.name === finding.object.name && f.object.namespace === finding.object.namespace;
  const current = ((await index.analyse(document))?.findings ?? []).filter(sameObject);
  if (current.length === 0) {
    void vscode.window.showInformationMessage(`${finding.ruleId} on ${finding.object.kind}/${finding.object.name} is no longer in the file: it changed since this run. Run Again to see what would shorten the outage now.`);
    return;
  }
  const distance = (f: Finding) => Math.abs(f.range.start.line - finding.range.start.line);
  const { start, end } = current.reduce((nearest, f) => (distance(f) < distance(nearest) ? f : nearest)).range;
  const selection = new vscode.Range(start.line, start.character, end.line, end.character);
  const editor = await vscode.window.showTextDocument(document, { viewColumn: editorColumn(document), selection });
  editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  if (finding.fixes.length > 0) await vscode.commands.executeCommand('editor.action.quickFix');
}

/**
 * The column that already shows the document, else one that shows another text editor: never a
 * second copy, nor over the timeline. With no text editor in view, beside the timeline.
 */
function editorColumn(document: vscode.TextDocument): vscode.ViewColumn {
  const editors = vscode.window.visibleTextEditors;
  return editors.find((e) => e.document.uri.toString() === document.uri.toString())?.viewColumn
    ?? editors.find((e) => e.viewColumn !== undefined)?.viewColumn
    ?? vscode.ViewColumn.Beside;
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
