/**
 * `kubectl get pods,nodes -o wide` as of the cursor, and the events up to it: rebuilt when the
 * cursor moves, every value set as text.
 */
import { clusterAt } from '../src/report/timeline/clusterAt';
import type { Marker, Timeline } from '../src/report/timeline/model';
import { podStatusCategory } from '../src/report/timeline/statusCategory';
import { formatTime } from '../src/report/format';
import { el, table } from './dom';

export function cursorTable(timeline: Timeline, t: number): HTMLElement {
  const at = clusterAt(timeline, t);
  const root = el('div', undefined, 'cursor-table');
  root.appendChild(el('p', `As of ${formatTime(Math.round(t)).trim()} after the failure (m:ss.mmm):`, 'caption'));
  const podStatus = at.pods.map((p) => podStatusCategory(p.status, p.ready));
  const pods = table(['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'IP', 'NODE'],
    at.pods.map((p) => [p.namespace, `pod/${p.name}`, p.ready, p.status, String(p.restarts), p.ip, p.node]),
    (r, c) => (c === 3 ? `status cat-${podStatus[r]}` : undefined));
  pods.setAttribute('aria-label', `Pods at ${formatTime(Math.round(t)).trim()}`);
  pods.classList.add('kubectl', 'pods-at');
  const nodes = table(['NAME', 'STATUS', 'TAINTS'], at.nodes.map((n) => [`node/${n.name}`, n.status, n.taints]),
    (r, c) => (c === 1 ? `status node-${at.nodes[r].status.startsWith('Ready') ? 'ready' : 'notready'}` : undefined));
  nodes.setAttribute('aria-label', `Nodes at ${formatTime(Math.round(t)).trim()}`);
  nodes.classList.add('kubectl', 'nodes-at');
  root.append(scroll(pods), scroll(nodes));
  return root;
}

function scroll(content: HTMLElement): HTMLElement {
  const wrapper = el('div', undefined, 'scroll');
  wrapper.appendChild(content);
  return wrapper;
}

interface NamedMarker extends Marker {
  object: string;
}

/** Every event with the object it is about, in time order. */
export function allEvents(timeline: Timeline): NamedMarker[] {
  const named: NamedMarker[] = [];
  for (const node of timeline.nodes) for (const e of node.events) named.push({ ...e, object: `node/${node.name}` });
  for (const w of timeline.workloads) {
    for (const e of w.events) named.push({ ...e, object: `${w.ref.kind.toLowerCase()}/${w.ref.name}` });
    for (const pod of w.pods) for (const e of pod.events) named.push({ ...e, object: `pod/${pod.ref.name}` });
    for (const ep of w.endpoints) for (const e of ep.events) named.push({ ...e, object: `endpointslice/${ep.ref.name}` });
  }
  for (const pod of timeline.otherPods) for (const e of pod.events) named.push({ ...e, object: `pod/${pod.ref.name}` });
  for (const ep of timeline.otherEndpoints) for (const e of ep.events) named.push({ ...e, object: `endpointslice/${ep.ref.name}` });
  for (const e of timeline.otherEvents) named.push({ ...e, object: '' });
  return named.sort((a, b) => a.t - b.t);
}

/** Most events shown at once; a 1,000-pod trace has tens of thousands. */
const MAX_EVENTS = 500;

/** The events up to the cursor, the latest last (like `kubectl get events --watch` at that instant). */
export function eventsTable(events: readonly NamedMarker[], t: number): HTMLElement {
  let end = events.length;
  while (end > 0 && events[end - 1].t > t) end--;
  const shown = events.slice(Math.max(0, end - MAX_EVENTS), end);
  const root = el('div', undefined, 'events-at');
  root.appendChild(el('p', end > shown.length ? `The last ${shown.length} of ${end} events up to the cursor:` : `${end} events up to the cursor:`, 'caption'));
  const grid = table(['TIME', 'OBJECT', 'REASON', 'MESSAGE'], shown.map((e) => [formatTime(e.t).trim(), e.object, e.reason, e.message]));
  grid.classList.add('kubectl');
  root.appendChild(scroll(grid));
  return root;
}
