import * as vscode from 'vscode';
import { beforeAfter, restored, withoutComparison } from './comparison';
import { MAX_RELOADS, ReadyWatchdog } from './readyWatchdog';
import { isHostMessage, PAGE_LOAD_META, TIMELINE_VIEW_TYPE, isWebviewMessage, type FindingRef, type HostMessage, type HostNotice, type RunRef, type WebviewMessage } from '../../webview/protocol';
import { interventionsTitle } from '../report/textReport';
import { runReads } from './changedInput';
import { savedMessage } from './savedState';

/** Runs a panel's simulation again (the extension's simulate command knows how). */
export type Rerun = (run: RunRef) => void;
export type Reveal = (run: RunRef | undefined, message: Extract<WebviewMessage, { type: 'reveal' }>) => void;
export type ShowFinding = (finding: FindingRef) => void;

const VIEW_TYPE = TIMELINE_VIEW_TYPE;

interface Entry {
  panel: vscode.WebviewPanel;
  /** What the panel shows: the run, maybe compared with another. */
  message: HostMessage;
  /** The panel's run alone (what Run Again runs again). */
  alone: HostMessage;
  /** The run before its last Run Again: "before the edit" for Compare With…. */
  previous?: HostMessage;
  /** A file the run read was edited since it ran: the page says so until the next run. */
  inputChanged?: boolean;
}

/** One panel per scenario: the same files and choices reuse their panel. */
export function scenarioKey(run: RunRef | undefined, title: string): string {
  if (!run) return title;
  // A scenario file's run is the file's: one panel per file, whatever it says now.
  if (run.scenario) return JSON.stringify([run.scenario]);
  return JSON.stringify([run.document, run.documents ?? [], run.failure, run.targets, run.recoverAfterMs ?? null, run.interventions ?? [], run.durationMs ?? null,
    run.kubernetesVersion ?? '', run.profile ?? '', run.placement ?? '', run.seed ?? null]);
}

/**
 * The timeline webviews: a strict Content Security Policy with a nonce, only the extension's own
 * script and style (localResourceRoots: the bundle and the stylesheet), data sent as a message
 * and checked on receipt, and panels revived after a window reload from the state the webview kept.
 */
export class TimelinePanels implements vscode.Disposable {
  private readonly panels = new Map<string, Entry>();
  private readonly subscriptions: vscode.Disposable[] = [];

  /** `restoredRun`: a panel revived after a window reload, whose run Run Again and Save Scenario As… can take up. */
  /** `isManifest`: WorkspaceIndex.isManifest, which the out-of-date notice asks of a folder's other files. */
  constructor(
    private readonly extensionUri: vscode.Uri, private readonly rerun: Rerun, private readonly reveal: Reveal, private readonly showFinding: ShowFinding,
    private readonly restoredRun: (run: RunRef) => void,
    private readonly log: vscode.LogOutputChannel,
    private readonly isManifest: (document: vscode.TextDocument) => boolean,
  ) {
    this.subscriptions.push(vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        // The state is what the webview saved with setState: checked like any message.
        const message = savedMessage(state);
        if (!isHostMessage(message)) {
          panel.dispose();
          return;
        }
        this.adopt(panel, message);
        if (message.run) this.restoredRun(message.run);
      },
    }), vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.contentChanges.length > 0) this.documentChanged(event.document);
    }));
  }

  private documentChanged(document: vscode.TextDocument): void {
    const changed = document.uri.toString();
    for (const entry of this.panels.values()) {
      const run = entry.alone.run;
      if (entry.inputChanged || !run) continue;
      const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(run.document))?.uri.toString();
      if (!runReads(run, changed, folder, () => this.isManifest(document))) continue;
      entry.inputChanged = true;
      sayInputChanged(entry);
    }
  }

  show(message: HostMessage): void {
    const key = scenarioKey(message.run, message.title);
    const existing = this.panels.get(key);
    if (existing) {
      existing.previous = existing.alone;
      existing.alone = withoutComparison(message);
      existing.message = message;
      existing.inputChanged = false;
      existing.panel.title = panelTitle(message);
      existing.panel.reveal(existing.panel.viewColumn ?? vscode.ViewColumn.Beside, true);
      void existing.panel.webview.postMessage(message);
      return;
    }
    const panel = vscode.window.createWebviewPanel(VIEW_TYPE, panelTitle(message), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, this.options());
    this.adopt(panel, message);
  }

  /** "Compare With…" for the timeline in front (the command palette's way in). */
  async compareActive(): Promise<void> {
    // The active timeline, else one in view, else the latest opened (a background tab).
    const entries = [...this.panels.values()];
    const entry = entries.find((e) => e.panel.active) ?? entries.find((e) => e.panel.visible) ?? entries.at(-1);
    if (!entry) {
      void vscode.window.showInformationMessage('Open a timeline first (Simulate Node Failure…).');
      return;
    }
    await this.chooseComparison(entry);
  }

  /** Two runs on one time axis: before/after an edit (Run Again), or any other open timeline. */
  private async chooseComparison(entry: Entry): Promise<void> {
    type Item = vscode.QuickPickItem & { other?: HostMessage };
    const items: Item[] = [];
    if (entry.message.compare) items.push({ label: 'Stop comparing', detail: `Show ${entry.alone.title} alone.` });
    if (entry.previous) items.push({ label: 'The run before the last Run Again', detail: entry.previous.title, other: entry.previous });
    for (const other of this.panels.values()) {
      if (other !== entry) items.push({ label: other.alone.title, detail: 'Another open timeline: another failure, target or file.', other: other.alone });
    }
    if (items.length === 0) {
      void vscode.window.showInformationMessage('Nothing to compare with yet: edit the manifest and Run Again, or simulate another failure.');
      return;
    }
    const pick = await vscode.window.showQuickPick(items, { title: `Compare ${entry.alone.title} with…` });
    if (!pick) return;
    const alone = entry.alone;
    if (!pick.other) entry.message = alone;
    // Before → after: the earlier run is A, the current text B (both runs have the same choices, so the same title).
    else if (pick.other === entry.previous) entry.message = beforeAfter(alone, pick.other);
    else entry.message = { ...alone, compare: { title: pick.other.title, report: pick.other.report } };
    void entry.panel.webview.postMessage(entry.message);
    sayInputChanged(entry);
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
  }

  private adopt(panel: vscode.WebviewPanel, message: HostMessage): void {
    const key = scenarioKey(message.run, message.title);
    const entry: Entry = { panel, message, ...restored(message) };
    this.panels.set(key, entry);
    this.updateContext();
    panel.webview.options = this.options();
    const load = (number: number) => {
      panel.webview.html = this.html(panel.webview, number);
    };
    const watchdog = new ReadyWatchdog((number) => {
      this.log.info(`Timeline "${panel.title}": its page has not said ready; loading it again (load ${number})`);
      load(number);
    }, () => panel.visible, () => {
      void vscode.window.showErrorMessage(`The timeline "${panel.title}" could not load its page: its script did not start after ${MAX_RELOADS + 1} tries. Close it and simulate again.`);
    });
    load(watchdog.currentLoad);
    watchdog.expectReady();
    let visible = panel.visible;
    // A hidden panel's page is torn down (retainContextWhenHidden: false) and loads again when shown.
    const viewState = panel.onDidChangeViewState(() => {
      if (panel.visible && !visible) watchdog.expectReady();
      visible = panel.visible;
    });
    const listener = panel.webview.onDidReceiveMessage((received: unknown) => {
      if (!isWebviewMessage(received)) return;
      if (received.type === 'ready') {
        // A page replaced by a later load: its run would be lost with it.
        const current = watchdog.currentLoad;
        if (!watchdog.ready(received.load)) {
          this.log.info(`Timeline "${panel.title}": ready from load ${received.load}, replaced by load ${current}: ignored`);
          return;
        }
        if (current > 1) this.log.info(`Timeline "${panel.title}": load ${current} ready`);
        void panel.webview.postMessage(entry.message);
        // A page loaded again (a hidden panel shown) learns again that its run is out of date.
        sayInputChanged(entry);
      } else if (received.type === 'rerun' && entry.message.run) this.rerun(entry.message.run);
      else if (received.type === 'reveal') this.reveal(entry.message.run, received);
      else if (received.type === 'compare') void this.chooseComparison(entry);
      else if (received.type === 'showFinding') {
        const finding = [...(entry.message.findings ?? []), ...(entry.message.compare?.findings ?? [])].find((f) => f.index === received.index);
        if (finding) this.showFinding(finding);
      }
    });
    panel.onDidDispose(() => {
      listener.dispose();
      viewState.dispose();
      watchdog.dispose();
      if (this.panels.get(key)?.panel === panel) this.panels.delete(key);
      this.updateContext();
    });
  }

  /** `kubeFailureSim.hasTimeline`: Compare With… shows in the command palette only while a timeline is open. */
  private updateContext(): void {
    void vscode.commands.executeCommand('setContext', 'kubeFailureSim.hasTimeline', this.panels.size > 0);
  }

  /** The page; `load` numbers it, and its script says the number with `ready` (webview/main.ts). */
  private html(webview: vscode.Webview, load: number): string {
    const nonce = createNonce();
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'main.js'));
    const controls = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'toolkit.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'timeline.css'));
    // The nonce in style-src lets the toolkit's one feature probe (an empty <style nonce>) pass.
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource} 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<meta property="csp-nonce" content="${nonce}">
<meta name="kfs-controls-src" content="${controls}">
<meta name="${PAGE_LOAD_META}" content="${load}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>Node failure timeline</title>
</head>
<body>
<div id="root"><p>Simulating…</p></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }

  dispose(): void {
    for (const { panel } of [...this.panels.values()]) panel.dispose();
    this.panels.clear();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

/** Tells the page its run is out of date, if it is (after each message that rebuilds the page). */
function sayInputChanged(entry: Entry): void {
  if (entry.inputChanged) void entry.panel.webview.postMessage({ type: 'inputChanged' } satisfies HostNotice);
}

function panelTitle(message: HostMessage): string {
  const uri = message.run ? message.run.scenario ?? message.run.document : undefined;
  const file = uri ? decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1)) : 'trace';
  const timing = message.run ? runTimingLabel(message.run) : '';
  // Two timelines of one file tell their targets apart (a scenario file's run is the file's).
  const targets = message.run && !message.run.scenario && message.run.targets.length > 0 ? ` of ${message.run.targets.join(', ')}` : '';
  // And what people did meanwhile, which two runs may differ in alone.
  const meanwhile = message.run && !message.run.scenario ? interventionsTitle(message.run.interventions) : '';
  return `${message.run?.failure ?? 'Failure'}${targets}${meanwhile}: ${file}${timing ? ` (${timing})` : ''}`;
}

/** The version and preset a run chose, for titles ("1.31, preset fast"); '' when it follows the settings. */
export function runTimingLabel(run: RunRef): string {
  return [run.kubernetesVersion, run.profile && (run.profile === 'none' ? 'no preset' : `preset ${run.profile}`)].filter(Boolean).join(', ');
}

function createNonce(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
