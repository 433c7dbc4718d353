/**
 * What a field does when a node fails, with this workload's simulated numbers and the timing
 * knobs (value and where it came from) that decide them. Markdown; every manifest string is
 * escaped (markdown.ts); src/extension only wraps it.
 */
import type { Knob } from '../cluster/knobSpec';
import { COMPONENTS, knobOfComponent } from '../cluster/timing';
import { formatDuration } from '../report/format';
import { pid1IgnoresTerm, shellScriptAsPid1 } from '../manifest/model/containerStop';
import type { Container, PodDisruptionBudget, Probe, Sourced, Workload } from '../manifest/model/types';
import type { ManifestObject } from '../manifest/objects';
import { valueAt, type PathSegment } from '../manifest/path';
import { budgetSelects, NOT_READY, podSpecPath } from './facts';
import { autoscalerOf, fewestPods, hasReplicas } from '../manifest/model/autoscaling';
import { noPodText } from './lenses';
import { workloadLabeler } from '../report/workloadLabel';
import { code, md, simulateLink } from './markdown';
import { approx, outageText } from './outageText';
import { selectedNodes } from './workloadSimulation';
import { toleratesTaint, UNREACHABLE } from '../sim/tolerations';
import { admitPriority } from '../sim/priority';
import { SYSTEM_PRIORITY_CLASSES } from '../manifest/model/resources';
import type { RuleContext } from './rule';

export interface Hover {
  markdown: string;
  /** The field the hover is about (its key and value). */
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

function knobLine(name: string, knob: Knob): string {
  const value = typeof knob.value === 'number' && knob.spec.type === 'duration' ? formatDuration(knob.value) : String(knob.value);
  return `${code(`${name}=${value}`)} (${md(knob.source)})`;
}

const startsWith = (path: PathSegment[], prefix: PathSegment[]) => prefix.every((segment, i) => path[i] === segment);

export function hoverAt(ctx: RuleContext, fileOffset: number): Hover | undefined {
  const object = ctx.document.objects.find((o) => o.sourceMap.pathAt(fileOffset) !== undefined && containsOffset(o, fileOffset));
  if (!object) return undefined;
  const at = object.sourceMap.pathAt(fileOffset);
  if (!at || at.path.length === 0) return undefined;
  const range = object.sourceMap.keyOrClosestRange(at.path);
  const valueRange = object.sourceMap.valueRange(at.path);
  const whole = valueRange && at.onKey ? { start: range.start, end: valueRange.end } : valueRange ?? range;
  const workload = ctx.document.model.workloads.find((w) => w.source === object);
  const body = workload ? workloadHover(ctx, workload, at.path) : configHover(ctx, object, at.path) ?? pdbHover(ctx, object, at.path);
  return body ? { markdown: body, range: whole } : undefined;
}

function containsOffset(object: ManifestObject, fileOffset: number): boolean {
  const root = object.sourceMap.root;
  return !!root && fileOffset >= object.sourceMap.baseOffset + root.start && fileOffset <= object.sourceMap.baseOffset + root.end;
}

function outcomeLines(ctx: RuleContext, workload: Sourced<Workload>): string[] {
  const skipped = ctx.unsimulated.get(workload);
  if (skipped) return [`**If its node fails**: ${md(skipped.text)}.`];
  const outcome = ctx.simulations.outcome(workload, ctx.workspace, ctx.timing);
  if (!outcome) return [`${noPodText(workload, ctx.workspace)}, so a node failure changes nothing.`];
  const text = outageText(outcome);
  const { controllerManager, apiServer } = ctx.timing;
  return [
    `**If its node fails** (power-off of ${md(outcome.failedNode)}, never back; Kubernetes ${ctx.timing.version.label}): ${md(text.headline)}: ${md(text.because)}.`,
    '',
    `Timing: ${knobLine('node-monitor-grace-period', controllerManager.nodeMonitorGracePeriod)}, ${knobLine('default-unreachable-toleration-seconds', apiServer.defaultUnreachableTolerationSeconds)}.`,
  ];
}

function workloadHover(ctx: RuleContext, workload: Sourced<Workload>, path: PathSegment[]): string | undefined {
  const pod = podSpecPath(workload);
  const rel = startsWith(path, pod) ? path.slice(pod.length) : undefined;
  const field = rel?.[0];
  let lines: string[] | undefined;
  if (hasReplicas(workload) && path[0] === 'spec' && path[1] === 'replicas' && path.length === 2) lines = replicasHover(ctx, workload);
  else if (workload.kind === 'StatefulSet' && path[1] === 'podManagementPolicy') lines = [
    `**podManagementPolicy: ${md(workload.podManagementPolicy)}**: ${workload.podManagementPolicy === 'OrderedReady' ? 'pods are created and updated one at a time in ordinal order, and the controller waits at a pod that is not Running and Ready: while a pod stays on a failed node, higher ordinals are not created or updated.' : 'pods are created and deleted in parallel; a pod on a failed node still keeps its name, so it is not recreated while its old object exists.'}`,
  ];
  else if (path[1] === 'strategy' || path[1] === 'updateStrategy') lines = strategyHover(workload);
  else if (path[1] === 'volumeClaimTemplates') lines = ['**volumeClaimTemplates**: each pod gets its own claim, kept when the pod is deleted. A ReadWriteOnce volume stays attached to a failed node until the old pod object is gone, then 6 more minutes (at once with the out-of-service taint); a local volume keeps the pod on its node.'];
  else if (field === 'tolerations') lines = tolerationHover(ctx, workload, rel!);
  else if (field === 'nodeSelector' || field === 'affinity') lines = placementHover(ctx, workload);
  else if (field === 'terminationGracePeriodSeconds') lines = [
    `**terminationGracePeriodSeconds: ${workload.template.spec.terminationGracePeriodSeconds}**: on deletion the kubelet sends SIGTERM, waits up to this long, then SIGKILL. A pod on a failed node is deleted with this grace period but stays Terminating until the node returns or someone force-deletes it: the grace period never runs out there.`,
  ];
  else if (field === 'priorityClassName') lines = priorityHover(ctx, workload.template.spec.priorityClassName!);
  else if (field === 'volumes') lines = ['**volumes**: emptyDir data is lost when the pod moves; hostPath and local volumes stay on the node; a ReadWriteOnce claim stays attached to a failed node until its old pod object is gone, then 6 more minutes.'];
  else if (field === 'containers' && typeof rel![1] === 'number') lines = containerHover(writtenItem(workload.template.spec.containers, rel![1] as number), rel!.slice(2), workload.template.spec.terminationGracePeriodSeconds);
  if (!lines) return undefined;
  return [...lines, '', ...outcomeLines(ctx, workload), '', simulateLink(workloadLabeler(ctx.document.model.workloads)(workload))].join('\n');
}

/** The model's item written at that index of its list (none when the reader dropped it). */
function writtenItem<T extends { at?: number }>(items: readonly T[], index: number): T | undefined {
  return items.find((item, i) => (item.at ?? i) === index);
}

/** The class's value as the priority admission gives it, and what preemption does with it. */
function priorityHover(ctx: RuleContext, className: string): string[] {
  const priority = admitPriority(className, ctx.workspace.priorityClasses);
  const label = `**priorityClassName: ${md(className)}**`;
  if (!priority) {
    return [`${label}: the workspace declares no PriorityClass ${md(className)}, so its value is unknown here and the simulator neither preempts for these pods nor takes them as victims. A real scheduler deletes pods of a lower priority to make room for a pod that fits nowhere, unless the class says preemptionPolicy: Never.`];
  }
  const declared = SYSTEM_PRIORITY_CLASSES.some((c) => c.name === className) ? ', built in' : '';
  const preempts = priority.preemptionPolicy === 'Never'
    ? 'with preemptionPolicy Never a replacement that fits nowhere waits and deletes no other pod'
    : 'a replacement that fits nowhere makes room by deleting pods of a lower priority (preemption), and holds the node until they are gone';
  return [`${label}: priority ${priority.value} (PriorityClass ${md(className)}${declared}). When its node fails, ${preempts}; pods of a higher priority can take the place of its own the same way.`];
}

function replicasHover(ctx: RuleContext, workload: Extract<Workload, { replicas: number }>): string[] {
  const autoscaler = autoscalerOf(workload, ctx.workspace);
  const pods = fewestPods(workload, ctx.workspace);
  const scaled = !autoscaler ? ''
    : pods === 0 ? ` HorizontalPodAutoscaler ${md(autoscaler.name)} does not scale a target at 0: it stays at 0 until you set 1 or more.`
    : ` HorizontalPodAutoscaler ${md(autoscaler.name)} sets it, never below ${pods}: the numbers below are for ${pods}.`;
  return [`**replicas: ${workload.replicas}**: how many pods ${md(`${workload.kind}/${workload.name}`)} runs.${scaled} A pod on a failed node is replaced only when it is deleted (tolerationSeconds after the node's NoExecute taint)${workload.kind === 'StatefulSet' ? ', and a StatefulSet pod not even then: its name stays taken while the old object exists' : ''}; until then ${pods > 1 ? 'the other replicas serve' : 'nothing serves'}.`];
}

function strategyHover(workload: Workload): string[] {
  if (workload.kind === 'Deployment') {
    const { type, rollingUpdate } = workload.strategy;
    return [`**strategy: ${md(type)}**${type === 'RollingUpdate' ? ` (maxSurge ${md(String(rollingUpdate?.maxSurge))}, maxUnavailable ${md(String(rollingUpdate?.maxUnavailable))})` : ''}: how a rollout replaces pods. It plays no part when a node fails: replacements come from the ReplicaSet controller as soon as a pod is deleted.`];
  }
  return ['**updateStrategy**: how a rollout replaces pods; it plays no part when a node fails.'];
}

function tolerationHover(ctx: RuleContext, workload: Sourced<Workload>, rel: PathSegment[]): string[] {
  const index = typeof rel[1] === 'number' ? rel[1] : undefined;
  const toleration = index !== undefined ? writtenItem(workload.template.spec.tolerations, index) : undefined;
  const { defaultUnreachableTolerationSeconds: unreachable } = ctx.timing.apiServer;
  const outcome = ctx.simulations.outcome(workload, ctx.workspace, ctx.timing);
  const s = outcome?.summary;
  const evicted = s && s.podDeletionMs !== null && s.noExecuteTaintMs !== null
    ? ` Simulated: the NoExecute taint at ${approx(s.noExecuteTaintMs)}, the pod deleted at ${approx(s.podDeletionMs)} (${approx(s.podDeletionMs - s.noExecuteTaintMs)} later).`
    : '';
  const seconds = toleration?.tolerationSeconds;
  // key:effect of the toleration under the pointer, bold; the list as a whole when none is.
  const label = (more = '') => (toleration ? `**${md(toleration.key || '(every taint)')}${toleration.effect ? `:${md(toleration.effect)}` : ''}${more}**` : '**tolerations**');
  if (workload.kind === 'DaemonSet') {
    const name = `${label()}: the DaemonSet controller adds to every pod of it tolerations of \`node.kubernetes.io/unreachable\` and \`not-ready\` NoExecute without tolerationSeconds`;
    // A written toleration of the taint with seconds comes first, and the first match is the one that counts.
    const evictedAfter = s?.cause.kind === 'daemon-pod-deleted' ? s.cause.tolerationSeconds : null;
    if (evictedAfter !== null && s?.noExecuteTaintMs != null && s.podDeletionMs !== null) {
      return [`${name}, after the written ones; the taint eviction controller reads the first toleration matching a taint, so a written one with tolerationSeconds ${evictedAfter} decides. Simulated: its pod on a failed node is evicted at ${approx(s.podDeletionMs)}, ${evictedAfter}s after the NoExecute taint, and the DaemonSet runs no other pod there or elsewhere until the node recovers.`];
    }
    return [`${name}, so its pod on a failed node is never evicted: it waits for the node, and no other node runs it instead (AddOrUpdateDaemonPodTolerations, pkg/controller/daemon/util).`];
  }
  const head = `${label(seconds !== undefined ? `, tolerationSeconds ${seconds}` : ', no tolerationSeconds')}: `;
  if (toleration?.key === NOT_READY) {
    // Not the taint of a node that is gone (unreachable): that of a kubelet reporting NotReady.
    const notReady = ctx.simulations.outcome(workload, ctx.workspace, ctx.timing, 'kubelet-not-ready')?.summary;
    const simulated = notReady && notReady.noExecuteTaintMs !== null
      ? ` Simulated (its kubelet reports NotReady): the taint at ${approx(notReady.noExecuteTaintMs)}, ${notReady.podDeletionMs !== null ? `the pod deleted at ${approx(notReady.podDeletionMs)}` : 'the pod never deleted'}.`
      : '';
    return [`${head}when a kubelet reports NotReady (its container runtime down, for one), the node lifecycle controller taints its node \`node.kubernetes.io/not-ready:NoExecute\`; the taint eviction controller then deletes each pod tolerationSeconds after it sees the taint (never if tolerated without seconds). A node that stops answering gets the unreachable taint instead, which this toleration does not cover.${simulated}`];
  }
  // One that does not cover a dead node's taint (another key, NoSchedule): what does is said instead.
  if (toleration && !toleratesTaint(toleration, DEAD_NODE_TAINT)) {
    const covering = workload.template.spec.tolerations.find((t) => toleratesTaint(t, DEAD_NODE_TAINT));
    const decides = !covering ? `the ${unreachable.value}s DefaultTolerationSeconds gives pods that write none (${md(unreachable.source)})`
      : covering.tolerationSeconds !== undefined ? `its toleration of it with tolerationSeconds ${covering.tolerationSeconds}` : 'its toleration of it without tolerationSeconds (never deleted)';
    return [`${label()}: does not match \`${UNREACHABLE}:NoExecute\`, the taint a node that stops answering gets, so it plays no part in when the pods of a failed node are deleted: ${decides} does.${evicted}`];
  }
  return [`${head}when a node stops answering, the node lifecycle controller taints it \`node.kubernetes.io/unreachable:NoExecute\` one monitor pass after it turns NotReady; the taint eviction controller then deletes each pod tolerationSeconds after it sees the taint (immediately if not tolerated, never if tolerated without seconds). Pods that write none get ${unreachable.value}s from DefaultTolerationSeconds (${md(unreachable.source)}).${evicted}`];
}

const DEAD_NODE_TAINT = { key: UNREACHABLE, value: '', effect: 'NoExecute' } as const;

function placementHover(ctx: RuleContext, workload: Workload): string[] {
  // With no Node objects the simulation runs on the default cluster given what the pods ask for.
  const { cluster, nodes: matching } = selectedNodes(workload, ctx.workspace);
  const names = `${md(matching.slice(0, 5).map((n) => n.name).join(', ') || 'none')}${matching.length > 5 ? ` and ${matching.length - 5} more` : ''}`;
  const then = matching.length === 0 ? 'No node matches, so its pods stay Pending, failure or not.'
    : matching.length === 1 ? 'A replacement can only go to a matching node that is Ready and untainted: with this one node, it stays Pending until the node returns.'
      : 'A replacement can only go to a matching node that is Ready and untainted.';
  return [`**Node selection**: ${matching.length} of the ${cluster.nodes.length} nodes of the cluster (${md(cluster.source)}) match: ${names}. ${then}`];
}

function probeText(kind: string, probe: Probe): string {
  if (kind === 'livenessProbe') return `the kubelet restarts the container after ${probe.failureThreshold} failed checks ${probe.periodSeconds}s apart (first check after ${probe.initialDelaySeconds}s): a hang is detected ${(probe.failureThreshold - 1) * probe.periodSeconds + probe.timeoutSeconds}–${probe.failureThreshold * probe.periodSeconds + probe.timeoutSeconds}s after it starts (the first failing check within one period, then failureThreshold − 1 more, plus the timeout)`;
  if (kind === 'readinessProbe') return `after ${probe.failureThreshold} failed checks ${probe.periodSeconds}s apart the pod leaves the Service's endpoints (${(probe.failureThreshold - 1) * probe.periodSeconds + probe.timeoutSeconds}–${probe.failureThreshold * probe.periodSeconds + probe.timeoutSeconds}s after a hang). On a failed node no probe runs: the endpoint goes only when the node is marked NotReady`;
  return `liveness and readiness checks start only after it succeeds; the container is restarted after ${probe.failureThreshold} × ${probe.periodSeconds}s of failures`;
}

function containerHover(container: Container | undefined, rel: PathSegment[], graceSeconds: number): string[] | undefined {
  if (!container) return undefined;
  const field = rel[0];
  if (field === 'readinessProbe' || field === 'livenessProbe' || field === 'startupProbe') {
    const probe = container[field];
    return probe ? [`**${field}** of ${md(container.name)}: ${probeText(field, probe)}.`] : undefined;
  }
  if (field === 'command' || field === 'args') {
    // The same judgement as KFS030 and the simulated stop.
    const shell = shellScriptAsPid1(container) !== undefined && !container.preStop;
    const deaf = !shell && pid1IgnoresTerm(container) && !container.preStop;
    return [`**${field}** of ${md(container.name)}: the first program runs as PID 1 and receives SIGTERM on deletion. ${shell ? `Here a shell is PID 1: it does not forward SIGTERM, so every stop waits ${graceSeconds}s and ends in SIGKILL unless the script starts its program with exec.`
      : deaf ? `Here PID 1 is a program with no SIGTERM handler, which PID 1 ignores: every stop waits ${graceSeconds}s and ends in SIGKILL.` : `It has ${graceSeconds}s to exit before SIGKILL.`}`];
  }
  if (field === 'resources') {
    const qos = container.limits.cpuMillis !== undefined && container.limits.memoryBytes !== undefined && (container.requests.cpuMillis ?? container.limits.cpuMillis) === container.limits.cpuMillis && (container.requests.memoryBytes ?? container.limits.memoryBytes) === container.limits.memoryBytes
      ? 'Guaranteed' : container.requests.cpuMillis === undefined && container.requests.memoryBytes === undefined && container.limits.cpuMillis === undefined && container.limits.memoryBytes === undefined ? 'BestEffort' : 'Burstable';
    return [`**resources** of ${md(container.name)}: this container makes the pod at best ${qos}. Under node memory or disk pressure the kubelet evicts BestEffort pods first, then Burstable ones over their requests; requests also decide where the scheduler can put a replacement (Insufficient cpu/memory when the other nodes are full).`];
  }
  return undefined;
}

/** Flags and fields of cluster configuration files: what they change, the effective value, where it came from. */
/** Where flags of the control plane are written: a static Pod's command, a kubeadm ClusterConfiguration's extraArgs. */
const CONFIG_KINDS: ReadonlySet<string> = new Set(['Pod', 'ClusterConfiguration']);

/** kubeadm's extraArgs: a key of the mapping (v1beta3), or the name of a {name, value} item (v1beta4). */
function extraArgName(object: ManifestObject, path: PathSegment[]): string | undefined {
  const at = path.lastIndexOf('extraArgs');
  if (at < 0) return undefined;
  const key = path[at + 1];
  if (typeof key === 'string') return key;
  const name = typeof key === 'number' ? valueAt(object.value, [...path.slice(0, at + 2), 'name']) : undefined;
  return typeof name === 'string' ? name : undefined;
}

function configHover(ctx: RuleContext, object: ManifestObject, path: PathSegment[]): string | undefined {
  let component: 'kubelet' | 'controllerManager' | 'apiServer' | undefined;
  let ownName: string | undefined;
  if (object.kind === 'KubeletConfiguration' && typeof path[0] === 'string') [component, ownName] = ['kubelet', path[0]];
  else if (CONFIG_KINDS.has(object.kind)) {
    const flag = extraArgName(object, path) ?? /^--?([a-z0-9-]+)/.exec(String(valueAt(object.value, path)))?.[1];
    if (flag) {
      const isApiServer = JSON.stringify(object.value).includes('kube-apiserver') || path.includes('apiServer');
      [component, ownName] = [isApiServer ? 'apiServer' : 'controllerManager', flag];
      if (!knobOfComponent(component, flag)) component = isApiServer ? 'controllerManager' : 'apiServer';
    }
  }
  const ref = component && ownName ? knobOfComponent(component, ownName) : undefined;
  if (!ref) return undefined;
  const knob = (ctx.timing[ref.component] as Record<string, Knob>)[ref.field];
  const prefix = COMPONENTS.find((c) => c.component === ref.component)!.prefix;
  const lines = [
    `**${md(ref.spec.name)}** (${prefix}): ${md(ref.spec.description)}`,
    '',
    `In effect for this workspace: ${knobLine(ref.spec.name, knob)}; default of Kubernetes ${ctx.timing.version.label}: ${md(String(ref.spec.type === 'duration' ? formatDuration(ref.spec.defaultValue(ctx.timing.version.minor) as number) : ref.spec.defaultValue(ctx.timing.version.minor)))}.`,
  ];
  const noEffect = ref.spec.noEffect?.(ctx.timing.version.minor);
  if (noEffect) lines.push('', md(noEffect));
  if (ref.component === 'controllerManager' && ref.field === 'nodeMonitorGracePeriod') {
    // The grace counts from the pass that last saw a heartbeat (a lease renewal or a status post), and is checked each pass (SEMANTICS.md 3.2).
    const renewMs = ctx.timing.derived.leaseRenewIntervalMs;
    const postMs = ctx.timing.kubelet.nodeStatusReportFrequency.value;
    const periodMs = ctx.timing.controllerManager.nodeMonitorPeriod.value;
    const heartbeatMs = Math.min(renewMs, postMs);
    const heartbeats = postMs < renewMs ? `a status post every ${approx(postMs)} or a lease renewal every ${approx(renewMs)}` : `its lease renewal every ${approx(renewMs)}`;
    lines.push('', `A node is marked NotReady between ${approx((knob.value as number) - heartbeatMs)} and ${approx((knob.value as number) + 2 * periodMs)} after it stops: the grace period counts from the last heartbeat the controller saw (${heartbeats}), and is checked every ${approx(periodMs)}.`);
  }
  lines.push('', simulateLink());
  return lines.join('\n');
}

function pdbHover(ctx: RuleContext, object: ManifestObject, path: PathSegment[]): string | undefined {
  const pdb = ctx.document.model.podDisruptionBudgets.find((p) => p.source === object);
  if (!pdb || path[0] !== 'spec') return undefined;
  const selected = ctx.workspace.workloads.filter((w) => budgetSelects(pdb, w));
  const replicas = selected.reduce((sum, w) => sum + fewestPods(w, ctx.workspace), 0);
  return [
    `**PodDisruptionBudget ${md(pdb.name)}** selects ${selected.length === 0 ? 'no workload among the inputs' : md(selected.map((w) => `${w.kind}/${w.name}`).join(', '))} (${replicas} pod${replicas === 1 ? '' : 's'}): ${allowed(pdb, replicas)}`,
    '',
    'It limits voluntary disruptions only (kubectl drain, the Eviction API). When a node fails, the taint eviction controller deletes pods without asking it.',
  ].join('\n');
}

function allowed(pdb: PodDisruptionBudget, replicas: number): string {
  const value = (v: number | string) => (typeof v === 'number' ? v : Math.ceil((Number.parseInt(v, 10) / 100) * replicas));
  if (pdb.maxUnavailable !== undefined) return `at most ${value(pdb.maxUnavailable)} may be evicted at a time.`;
  if (pdb.minAvailable !== undefined) return `${Math.max(0, replicas - value(pdb.minAvailable))} may be evicted at a time.`;
  return 'it sets no limit.';
}

