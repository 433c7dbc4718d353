/** Section E of RULES.md: rollouts and voluntary disruptions. */
import { formatCount } from '../../manifest/formatCount';
import type { PodDisruptionBudget, Sourced, Workload } from '../../manifest/model/types';
import { objectRef, type ManifestObject } from '../../manifest/objects';
import { budgetSelects, isWritten, kindRange, rangeOf } from '../facts';
import { autoscalerOf, fewestPods, hasReplicas } from '../../manifest/model/autoscaling';
import type { Finding } from '../finding';
import { removedIn } from './apiValidationRules';
import type { Rule, RuleContext } from '../rule';

const DISRUPTION_DOCS = 'https://kubernetes.io/docs/concepts/workloads/pods/disruptions/';

const isZero = (value: number | string | undefined) => value === 0 || value === '0%';

function related(ctx: RuleContext, objects: { source: ManifestObject; name: string; kind?: string }[], what: string): Finding['related'] {
  return objects.flatMap((o) => {
    const location = ctx.locate(o.source);
    return location ? [{ location, message: `${o.kind ?? o.source.kind} ${o.name} ${what}` }] : [];
  });
}

export const rolloutCannotProgress: Rule = {
  id: 'KFS050',
  title: 'maxSurge and maxUnavailable both 0',
  defaultSeverity: 'error',
  docs: 'https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#rolling-update-deployment',
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      if (workload.kind !== 'Deployment' || workload.strategy.type !== 'RollingUpdate') return [];
      const { maxSurge, maxUnavailable } = workload.strategy.rollingUpdate!;
      if (!isZero(maxSurge) || !isZero(maxUnavailable)) return [];
      return [{
        ruleId: this.id, severity: this.defaultSeverity, object: objectRef(workload.source),
        range: rangeOf(workload, ['spec', 'strategy', 'rollingUpdate', 'maxUnavailable']),
        message: 'The API server rejects this Deployment: maxSurge and maxUnavailable cannot both be 0 (a rollout could neither add a pod nor remove one).',
      }];
    });
  },
};

/** The workloads of the workspace a PDB selects, and the replicas they run. */
function selected(ctx: RuleContext, pdb: Sourced<PodDisruptionBudget>): Sourced<Workload>[] {
  return ctx.workspace.workloads.filter((w) => budgetSelects(pdb, w));
}

export const pdbBlocksDrains: Rule = {
  id: 'KFS051',
  title: 'PodDisruptionBudget that never allows a disruption',
  defaultSeverity: 'warning',
  docs: DISRUPTION_DOCS,
  check(ctx) {
    return ctx.document.model.podDisruptionBudgets.flatMap((pdb): Finding[] => {
      // A budget of an apiVersion the API server no longer serves does not exist there (KFS094 says so).
      if (removedIn(pdb.source, ctx.timing.version.minor)) return [];
      const all = selected(ctx, pdb);
      // kubectl drain --ignore-daemonsets (and the cluster autoscaler) never evicts a DaemonSet's pods.
      const workloads = all.filter((w) => w.kind !== 'DaemonSet');
      if (all.length > 0 && workloads.length === 0) return [];
      // An autoscaler keeps at least its minReplicas: the budget is checked against the fewest pods there are.
      const replicas = workloads.reduce((sum, w) => sum + fewestPods(w, ctx.workspace), 0);
      // Workloads scaled to zero have no pod for a drain to wait on.
      if (workloads.length > 0 && replicas === 0) return [];
      let why: string | undefined;
      let field = 'maxUnavailable';
      if (isZero(pdb.maxUnavailable)) why = `maxUnavailable is ${pdb.maxUnavailable}`;
      else if (pdb.minAvailable === '100%') [why, field] = ['minAvailable is 100%', 'minAvailable'];
      else if (workloads.length > 0 && pdb.minAvailable !== undefined && minAvailableOf(pdb.minAvailable, replicas) >= replicas) {
        // The disruption controller rounds a percentage up (GetScaledValueFromIntOrPercent, roundUp).
        const asked = typeof pdb.minAvailable === 'number' ? `${pdb.minAvailable}` : `${pdb.minAvailable}, rounded up to ${minAvailableOf(pdb.minAvailable, replicas)},`;
        [why, field] = [`minAvailable ${asked} ≥ the ${replicas} replica${replicas === 1 ? '' : 's'} of ${workloads.map((w) => `${w.kind}/${w.name}`).join(', ')}`, 'minAvailable'];
      }
      // The eviction API refuses a pod that more than one PodDisruptionBudget selects.
      // The same object in two files (a kustomize base and its overlay) is one budget once applied.
      const sameObject = (other: typeof pdb) => other.name === pdb.name && other.namespace === pdb.namespace;
      const others = why ? [] : ctx.workspace.podDisruptionBudgets.filter((other) => other !== pdb && other.source !== pdb.source && !sameObject(other) && workloads.some((w) => budgetSelects(other, w)));
      if (others.length > 0) {
        return [{
          ruleId: this.id, severity: this.defaultSeverity, object: objectRef(pdb.source),
          range: pdb.source.sourceMap.closestRange(['spec', 'selector']),
          message: `Another PodDisruptionBudget (${others.map((o) => o.name).join(', ')}) selects the same pods: the eviction API refuses to evict a pod with more than one ("This pod has more than one PodDisruptionBudget"), so kubectl drain and node upgrades fail on them. Keep one PodDisruptionBudget per pod.`,
          related: related(ctx, workloads.map((w) => ({ source: w.source, name: w.name })), 'is selected'),
        }];
      }
      if (!why) return [];
      return [{
        ruleId: this.id, severity: this.defaultSeverity, object: objectRef(pdb.source),
        range: pdb.source.sourceMap.closestRange(['spec', field]),
        message: `This PodDisruptionBudget never allows a voluntary disruption (${why}): kubectl drain and node upgrades wait on these pods forever. It does not protect them from a node failure: pods on a failed node are deleted regardless.`,
        related: related(ctx, workloads.map((w) => ({ source: w.source, name: w.name })), 'is selected'),
      }];
    });
  },
};

export const noPdb: Rule = {
  id: 'KFS052',
  title: 'Several replicas and no PodDisruptionBudget',
  defaultSeverity: 'info',
  docs: 'https://kubernetes.io/docs/tasks/run-application/configure-pdb/',
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      // An autoscaler's minReplicas, not the replicas it overrides, is how many pods there are at least.
      const pods = fewestPods(workload, ctx.workspace);
      if (!hasReplicas(workload) || pods < 2) return [];
      const selecting = ctx.workspace.podDisruptionBudgets.filter((pdb) => budgetSelects(pdb, workload));
      const { minor, label } = ctx.timing.version;
      if (selecting.some((pdb) => !removedIn(pdb.source, minor))) return [];
      // A budget written in an apiVersion the API server no longer serves is not there: say which, not that none exists.
      const unserved = selecting[0];
      const location = unserved && ctx.locate(unserved.source);
      return [{
        ruleId: this.id, severity: this.defaultSeverity, object: objectRef(workload.source),
        range: isWritten(workload, ['spec', 'replicas']) ? rangeOf(workload, ['spec', 'replicas']) : kindRange(workload),
        message: unserved
          ? `PodDisruptionBudget ${unserved.name} selects ${workload.kind}/${workload.name} but is written as ${unserved.source.apiVersion}, which Kubernetes ${label} no longer serves (KFS094): it is never created, so a drain or a node upgrade may evict all ${formatCount(pods)}${autoscalerOf(workload, ctx.workspace) ? ' or more' : ''} replicas at once. Write it as policy/v1.`
          : `No PodDisruptionBudget selects ${workload.kind}/${workload.name}: a drain or a node upgrade may evict all ${formatCount(pods)}${autoscalerOf(workload, ctx.workspace) ? ' or more' : ''} replicas at once. Add a PodDisruptionBudget with maxUnavailable: 1 (or minAvailable) that selects its pods.`,
        related: location ? [{ location, message: `PodDisruptionBudget ${unserved.name}: ${unserved.source.apiVersion}` }] : undefined,
      }];
    });
  },
};

/** minAvailable as a number of pods: a percentage of the expected pods, rounded up. */
function minAvailableOf(minAvailable: number | string, expected: number): number {
  if (typeof minAvailable === 'number') return minAvailable;
  const percent = /^(\d+)%$/.exec(minAvailable);
  return percent ? Math.ceil((Number(percent[1]) * expected) / 100) : 0;
}
