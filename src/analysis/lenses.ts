/** The CodeLens above each workload (KFS012): its simulated outage if its node fails and never returns, and if it returns after 2 minutes. */
import type { ManifestModel } from '../manifest/model';
import type { Workload } from '../manifest/model/types';
import type { Range } from '../manifest/range';
import type { ObjectRef } from '../manifest/objects';
import { workloadLabeler } from '../report/workloadLabel';
import { fewestPods } from '../manifest/model/autoscaling';
import { formatCount } from '../manifest/formatCount';
import { approx, outageText, type OutageText } from './outageText';
import type { RuleContext } from './rule';

export interface WorkloadLens {
  range: Range;
  workload: ObjectRef;
  /** What the simulate command is given for it: Kind/name, or Kind/namespace/name where the file has that Kind/name in two namespaces. */
  target: string;
  title: string;
  /** Unavailable time if the node never returns (Infinity: until someone acts; undefined: not simulated); for the status bar's worst. */
  outageMs: number | undefined;
  /** Serving, but short of replicas until someone acts (a StatefulSet's pod stuck on the dead node). */
  shortForGood?: boolean;
  /** Down for the whole run, which ends before the pod's toleration of the taint runs out: outageMs is a lower bound. */
  moreThan?: boolean;
}

export function workloadLenses(ctx: RuleContext): WorkloadLens[] {
  const label = workloadLabeler(ctx.document.model.workloads);
  const { workloads } = ctx.document.model;
  // Past the file's budget one lens says so for all the rest: a lens per workload of a 13,000-workload file slowed typing.
  const pastBudget = workloads.filter((w) => ctx.unsimulated.get(w)?.why === 'past-file-budget');
  return workloads.flatMap((workload): WorkloadLens[] => {
    const range = { start: workload.source.range.start, end: workload.source.range.start };
    const ref = { kind: workload.kind, name: workload.name, namespace: workload.namespace };
    const target = label(workload);
    const skipped = ctx.unsimulated.get(workload);
    if (skipped?.why === 'past-file-budget' && workload !== pastBudget[0]) return [];
    if (skipped?.why === 'past-file-budget' && pastBudget.length > 1) {
      return [{ range, workload: ref, target, title: `If its node fails: ${skipped.text} (this and the ${formatCount(pastBudget.length - 1)} after it are not)`, outageMs: undefined }];
    }
    if (skipped) return [{ range, workload: ref, target, title: `If its node fails: ${skipped.text}`, outageMs: undefined }];
    const lost = ctx.simulations.outcome(workload, ctx.workspace, ctx.timing, 'node-lost');
    if (!lost) return [{ range, workload: ref, target, title: noPodText(workload, ctx.workspace), outageMs: 0 }];
    const text = outageText(lost);
    const back = ctx.simulations.outcome(workload, ctx.workspace, ctx.timing, 'node-returns-2m');
    const backText = back ? outageText(back) : undefined;
    let title: string;
    if (workload.kind === 'DaemonSet') title = 'If a node fails: its pod there waits for the node (expected)';
    else if (text.open) title = `If its node fails: ${text.short === 'until someone acts' ? 'stuck until someone acts' : text.headline.toLowerCase()}`;
    else if (lost.summary.unavailableMs === 0) title = `If its node fails: no outage (${lost.summary.desiredReplicas} replica${lost.summary.desiredReplicas === 1 ? '' : 's'} on ${lost.nodesBefore} node${lost.nodesBefore === 1 ? '' : 's'})`;
    else title = `If its node fails: ${down(text)}`;
    if (backText && workload.kind !== 'DaemonSet' && back!.summary.unavailableMs > 0) {
      // Its node back does not always help: a bare pod with restartPolicy Never ends Failed after the reboot.
      title += ` (back in 2m: ${backText.short === 'until someone acts' ? 'still down until someone acts' : down(backText)})`;
    }
    const outageMs = text.open && lost.summary.unavailableMs >= lost.durationMs ? Infinity : lost.summary.unavailableMs;
    return [{ range, workload: ref, target, title, outageMs, shortForGood: workload.kind !== 'DaemonSet' && text.open && outageMs === 0, ...(text.moreThan ? { moreThan: true } : {}) }];
  });
}

/** "down ~5m57s"; a bound is not approximate: "down more than 2h". */
function down({ short, moreThan }: OutageText): string {
  return moreThan ? `down ${short}` : `down ~${short}`;
}

/** Why a workload has no pod for a node failure to hit: scaled to zero, or none fits the cluster. */
export function noPodText(workload: Workload, model: Pick<ManifestModel, 'horizontalPodAutoscalers'>): string {
  return fewestPods(workload, model) === 0 ? 'Scaled to 0: it runs no pod' : 'No pod of it can be scheduled on this cluster';
}

/** The workload with the longest outage (the first of equals), for the status bar. */
export function worstLens(lenses: readonly WorkloadLens[]): WorkloadLens | undefined {
  // A simulated workload beats one that is not: "not simulated" only when nothing was.
  // Short of replicas for good ranks above no outage and below any outage.
  const rank = (lens: WorkloadLens) => (lens.shortForGood ? 0.5 : lens.outageMs ?? -1);
  return lenses.reduce<WorkloadLens | undefined>((worst, lens) => (!worst || rank(lens) > rank(worst) ? lens : worst), undefined);
}

export function worstOutageText({ outageMs, shortForGood, moreThan }: Pick<WorkloadLens, 'outageMs' | 'shortForGood' | 'moreThan'>): string {
  if (outageMs === undefined) return 'Node failure: not simulated';
  if (outageMs === Infinity) return 'Node failure: stuck until someone acts';
  if (shortForGood) return 'Node failure: short of replicas until someone acts';
  if (outageMs === 0) return 'Node failure: no outage';
  return `Node failure: down ${moreThan ? 'more than ' : '~'}${approx(outageMs)}`;
}
