/**
 * What a quick fix changes, shown in its title before the user applies it: the edited text is
 * read again and the workload simulated again ("Set replicas: 2 (outage if a node fails: 5m43s → 0s)").
 */
import type { ManifestModel } from '../manifest/model';
import type { Sourced, Workload } from '../manifest/model/types';
import { LineIndex } from '../manifest/lineIndex';
import { readManifestText } from '../manifest/readManifest';
import type { EffectMeasure, Fix, TextEdit } from './finding';
import { approx, outageText } from './outageText';
import type { RuleContext } from './rule';
import type { Variant, WorkloadOutcome } from './workloadSimulation';

/** The text after the edits (edits of one fix do not overlap; applied from the end). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const lines = new LineIndex(text);
  const offsets = edits.map((e) => ({ start: lines.offset(e.range.start), end: lines.offset(e.range.end), text: e.newText }));
  offsets.sort((a, b) => b.start - a.start || b.end - a.end);
  let result = text;
  for (const { start, end, text: newText } of offsets) result = result.slice(0, start) + newText + result.slice(end);
  return result;
}

/**
 * The simulation each measure reads before and after the edit. `worst-placement-outage` (KFS010's
 * spread constraint, a preference the packed placement ignores by definition): the text as it is
 * with its pods packed onto one node, against the edited text with its pods spread as it asks.
 */
const VARIANTS: Record<EffectMeasure, { before: Variant; after: Variant; label: string; was?: string; will?: string }> = {
  outage: { before: 'node-lost', after: 'node-lost', label: 'outage if a node fails' },
  'not-ready-outage': { before: 'kubelet-not-ready', after: 'kubelet-not-ready', label: 'outage if its kubelet reports NotReady' },
  'partition-eviction': { before: 'partition', after: 'partition', label: 'if its node is cut off' },
  'not-ready-eviction': { before: 'kubelet-not-ready', after: 'kubelet-not-ready', label: 'if its kubelet reports NotReady' },
  'worst-placement-outage': { before: 'worst-placement', after: 'spread-placement', label: 'outage if a node fails', was: 'packed ', will: 'spread ' },
};

function describe(measure: EffectMeasure, outcome: WorkloadOutcome | undefined): string {
  if (!outcome) return '?';
  if (measure === 'partition-eviction' || measure === 'not-ready-eviction') {
    const evicted = outcome.summary.podDeletionMs;
    return evicted === null ? 'never evicted' : `evicted after ~${approx(evicted)}`;
  }
  return outageText(outcome).short;
}

/** The fix with its effect in its title; unchanged when it has none or the workload cannot be simulated. */
export function withEffect(fix: Fix, context: RuleContext): Fix {
  if (!fix.effect) return fix;
  const { workload: ref, measure } = fix.effect;
  const { before: beforeVariant, after: afterVariant, label, was: wasPrefix = '', will: willPrefix = '' } = VARIANTS[measure];
  const { documentIndex } = fix.effect;
  const find = (workloads: readonly Sourced<Workload>[]) => workloads.find((w) => w.source.documentIndex === documentIndex && w.kind === ref.kind && w.name === ref.name && w.namespace === ref.namespace);
  const before = find(context.document.model.workloads);
  // The edited text's workload is a new object: it is simulated only if the original is within the budget (notSimulated.ts).
  if (before && context.unsimulated.has(before)) return fix;
  const edited = readManifestText(applyEdits(context.document.parsed.text, fix.edits));
  const after = find(edited.model.workloads);
  if (!before || !after) return fix;
  const objects: ManifestModel = context.workspace;
  const was = describe(measure, context.simulations.outcome(before, objects, context.timing, beforeVariant));
  const will = describe(measure, context.simulations.outcome(after, objects, context.timing, afterVariant));
  // A fix that makes a default explicit (KFS008's tolerations) changes nothing until the user edits its value.
  if (was === will && wasPrefix === willPrefix) return { ...fix, title: `${fix.title} (${label}: unchanged, ${was})` };
  return { ...fix, title: `${fix.title} (${label}: ${wasPrefix}${was} → ${willPrefix}${will})` };
}
