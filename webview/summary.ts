/**
 * The summary per workload: outcome, how long it was unavailable, degraded and black-holed, the
 * key times, and the sentence that says why (and what would shorten it). Cards rather than a
 * wide table, so they reflow at the width of a side column.
 */
import type { WorkloadLane } from '../src/report/timeline/model';
import { formatDuration } from '../src/report/format';
import { workloadLabeler } from '../src/report/workloadLabel';
import { el, table } from './dom';
import { narrowColumn } from './cursorTable';
import type { FindingRef } from './protocol';

const KEY_TIMES: [keyof NonNullable<WorkloadLane['summary']>, string][] = [
  ['nodeNotReadyMs', 'Node NotReady'], ['podsNotReadyMs', 'Pods not ready'], ['noExecuteTaintMs', 'NoExecute taint'],
  ['podDeletionMs', 'Pod deletion'], ['replacementCreatedMs', 'Replacement created'], ['replacementReadyMs', 'Replacement Ready'],
];

/** The checks' findings about a workload, and what to do when one is chosen (nothing in the HTML report). */
export interface FindingLinks {
  findings: readonly FindingRef[];
  show?: (finding: FindingRef) => void;
}

export function summaryCards(workloads: readonly WorkloadLane[], showUnaffected: boolean, reveal: (lane: WorkloadLane) => void, interactive: boolean, links: FindingLinks = { findings: [] }): HTMLElement {
  const root = el('div', undefined, 'summary');
  const shown = workloads.filter((w) => w.summary && (w.affected || showUnaffected));
  const label = workloadLabeler(workloads.map((w) => w.ref));
  if (shown.length === 0) root.appendChild(el('p', 'No workload ran on the failed nodes.', 'caption'));
  // In a side column the cards start folded to their first line (name, outcome, time unavailable).
  const open = !narrowColumn.matches;
  for (const lane of shown) {
    const summary = lane.summary!;
    const card = el('details', undefined, `card outcome-${summary.outcome}`);
    card.open = open;
    const heading = el('h3');
    const name = label(lane.ref);
    // The card's first line folds it (a summary is a button of its own): the link to the YAML goes under it.
    heading.appendChild(el('span', name));
    heading.appendChild(el('span', summary.outcome, `tag outcome-${summary.outcome}`));
    heading.appendChild(el('span', foldFigure(summary), 'fold-figure'));
    const line = el('summary');
    line.appendChild(heading);
    card.appendChild(line);
    if (interactive) {
      const link = el('button', `Show the YAML of ${name}`, 'link show-yaml');
      link.addEventListener('click', () => reveal(lane));
      card.appendChild(link);
    }
    const figures = el('dl', undefined, 'figures');
    const figure = (term: string, value: string, className?: string) => figures.append(el('dt', term), el('dd', value, className));
    figure('Unavailable', formatDuration(summary.unavailableMs), summary.unavailableMs > 0 ? 'bad' : undefined);
    figure('Degraded', formatDuration(summary.degradedMs), summary.degradedMs > 0 ? 'warn' : undefined);
    figure('Black-holed', formatDuration(summary.blackholeMs), summary.blackholeMs > 0 ? 'warn' : undefined);
    if (summary.duplicateMs > 0) figure('Duplicate copies', formatDuration(summary.duplicateMs), 'warn');
    for (const [key, label] of KEY_TIMES) {
      const value = summary[key];
      if (typeof value === 'number') figure(label, `at ${formatDuration(value)}`);
    }
    card.append(figures, el('p', summary.reason, 'reason'));
    const own = links.findings.filter((f) => f.object.kind === lane.ref.kind && f.object.name === lane.ref.name && f.object.namespace === lane.ref.namespace);
    if (own.length > 0) card.appendChild(findingList(own, links.show, open));
    root.appendChild(card);
  }
  return root;
}

/** A folded card's figure: the worst of its times. */
function foldFigure({ unavailableMs, degradedMs }: NonNullable<WorkloadLane['summary']>): string {
  if (unavailableMs > 0) return `unavailable ${formatDuration(unavailableMs)}`;
  return degradedMs > 0 ? `degraded ${formatDuration(degradedMs)}` : 'no outage';
}

/** "What would shorten it": the rules that fired on this workload, each opening its YAML and quick fixes. */
function findingList(findings: readonly FindingRef[], show: ((finding: FindingRef) => void) | undefined, open: boolean): HTMLElement {
  const section = el('details', undefined, 'findings');
  section.open = open;
  const title = el('summary');
  title.appendChild(el('h4', `What would shorten it (${findings.length})`));
  section.appendChild(title);
  // The checks simulate each workload's own default failure, not this run: their times can differ from the card's.
  section.appendChild(el('p', 'The checks of the manifest, whose times come from each workload\'s default scenario (its node powers off and never returns), not from this run.', 'findings-note'));
  const list = el('ul');
  for (const finding of findings) {
    const item = el('li', undefined, `finding severity-${finding.severity}`);
    const label = `${finding.ruleId}: ${finding.message}`;
    if (show) {
      const link = el('button', label, 'link');
      link.title = finding.fixes.length > 0 ? 'Show it in the manifest with its quick fixes' : 'Show it in the manifest';
      link.addEventListener('click', () => show(finding));
      item.appendChild(link);
    } else item.appendChild(el('span', label));
    for (const fix of finding.fixes) item.appendChild(el('div', `Quick fix: ${fix}`, 'fix'));
    list.appendChild(item);
  }
  section.appendChild(list);
  return section;
}

/** Two runs side by side: each workload's outcome and times in A, then in B. */
export function comparisonTable(a: readonly WorkloadLane[], b: readonly WorkloadLane[]): HTMLElement {
  const root = el('div', undefined, 'comparison');
  root.appendChild(el('p', 'A → B for each workload of either run:', 'caption'));
  const byId = new Map(b.map((w) => [w.id, w]));
  const ids = [...a.map((w) => w.id), ...b.filter((w) => !a.some((x) => x.id === w.id)).map((w) => w.id)];
  const of = (lanes: readonly WorkloadLane[], id: string) => lanes.find((w) => w.id === id)?.summary;
  const label = workloadLabeler([...a, ...b].map((w) => w.ref));
  const rows = ids.map((id) => {
    const [x, y] = [of(a, id), byId.get(id)?.summary];
    const pair = (f: (s: NonNullable<typeof x>) => string) => `${x ? f(x) : '—'} → ${y ? f(y) : '—'}`;
    const lane = a.find((w) => w.id === id) ?? byId.get(id)!;
    return [label(lane.ref), pair((s) => s.outcome), pair((s) => formatDuration(s.unavailableMs)), pair((s) => formatDuration(s.degradedMs)), pair((s) => formatDuration(s.blackholeMs))];
  });
  const grid = table(['WORKLOAD', 'OUTCOME', 'UNAVAILABLE', 'DEGRADED', 'BLACK-HOLED'], rows);
  grid.classList.add('kubectl');
  grid.setAttribute('aria-label', 'The two runs compared');
  const scroll = el('div', undefined, 'scroll');
  scroll.appendChild(grid);
  root.appendChild(scroll);
  return root;
}
