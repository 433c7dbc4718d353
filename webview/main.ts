/**
 * The timeline webview: renders what the extension sends, every string as text (never HTML),
 * and keeps the last timeline across reloads.
 */
import { formatTime } from '../src/sim/renderText';
import { isHostMessage, type TimelineData, type WebviewMessage } from './protocol';

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

function render(data: TimelineData): void {
  const root = document.getElementById('root')!;
  root.replaceChildren();
  root.appendChild(element('h1', data.title));
  for (const line of data.header) root.appendChild(element('p', line, 'header'));
  root.appendChild(element('h2', 'Summary'));
  root.appendChild(table(['Workload', 'Outcome', 'Unavailable', 'Degraded', 'Why'],
    data.summary.map((s) => [s.workload, s.outcome, s.unavailable, s.degraded, s.reason]),
    (i) => `outcome-${data.summary[i].outcome}`));
  root.appendChild(element('h2', 'Timeline (time since the failure)'));
  root.appendChild(table(['Time', 'Name', 'Status', 'Ready', 'Restarts', 'Node', 'IP / detail'],
    data.rows.map((r) => [formatTime(r.t).trim(), r.name, r.status, r.ready, r.restarts, r.node, r.detail]),
    (i) => (data.rows[i].event ? 'event' : undefined)));
  const rerun = element('button', 'Run again');
  rerun.addEventListener('click', () => vscode.postMessage({ type: 'rerun' }));
  root.appendChild(rerun);
}

window.addEventListener('message', (event: MessageEvent) => {
  if (!isHostMessage(event.data)) return;
  vscode.setState(event.data.data);
  render(event.data.data);
});

const saved = vscode.getState();
if (saved && isHostMessage({ type: 'showTimeline', data: saved })) render(saved as TimelineData);
vscode.postMessage({ type: 'ready' });
