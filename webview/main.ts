/**
 * The timeline webview: renders the trace the extension sends, every string as text (never
 * HTML), and keeps the last trace across reloads.
 */
import { formatDuration, formatTime } from '../src/report/format';
import { reportHeader } from '../src/report/textReport';
import { watchRows } from '../src/report/watchRows';
import { isHostMessage, type HostMessage, type WebviewMessage } from './protocol';

declare function acquireVsCodeApi(): { postMessage(message: WebviewMessage): void; getState(): unknown; setState(state: unknown): void };

const vscode = acquireVsCodeApi();

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function table(headings: string[], rows: string[][], rowClass?: (i: number) => string | undefined): HTMLElement {
  const tableElement = element('table');
  const head = tableElement.createTHead().insertRow();
  for (const heading of headings) head.appendChild(element('th', heading));
  const body = tableElement.createTBody();
  rows.forEach((cells, i) => {
    const row = body.insertRow();
    const cls = rowClass?.(i);
    if (cls) row.className = cls;
    for (const cell of cells) row.appendChild(element('td', cell));
  });
  const scroll = element('div', undefined, 'scroll');
  scroll.appendChild(tableElement);
  return scroll;
}

function render({ title, report }: HostMessage): void {
  const root = document.getElementById('root')!;
  root.replaceChildren();
  root.appendChild(element('h1', title));
  for (const line of reportHeader(report.scenario, report.timing)) root.appendChild(element('p', line, 'header'));
  const workloads = report.summary.workloads;
  root.appendChild(element('h2', 'Summary'));
  root.appendChild(table(['Workload', 'Outcome', 'Unavailable', 'Degraded', 'Why'],
    workloads.map((w) => [`${w.object.kind}/${w.object.name}`, w.outcome, formatDuration(w.unavailableMs), formatDuration(w.degradedMs), w.reason]),
    (i) => `outcome-${workloads[i].outcome}`));
  root.appendChild(element('h2', 'Timeline (time since the failure)'));
  const rows = watchRows(report.events, report.states);
  root.appendChild(table(['Time', 'Name', 'Status', 'Ready', 'Restarts', 'Node', 'IP / detail'],
    rows.map((r) => [formatTime(r.t).trim(), r.name, r.status, r.ready, r.restarts, r.node, r.detail]),
    (i) => (rows[i].event ? 'event' : undefined)));
  const rerun = element('button', 'Run again');
  rerun.addEventListener('click', () => vscode.postMessage({ type: 'rerun' }));
  root.appendChild(rerun);
}

window.addEventListener('message', (event: MessageEvent) => {
  if (!isHostMessage(event.data)) return;
  vscode.setState(event.data);
  render(event.data);
});

const saved = vscode.getState();
if (isHostMessage(saved)) render(saved);
vscode.postMessage({ type: 'ready' });
