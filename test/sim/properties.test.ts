/**
 * Properties over random scenarios (fast-check): the invariants of SEMANTICS.md 15.4 (among them: tainting
 * never exceeds a zone's token-bucket rate, an RWO volume is never attached to two nodes at once), a
 * graceful shutdown never leaves a pod Running on a stopped node, no pod
 * bound to a node whose NoSchedule taints it does not tolerate, preemption deletes only pods of a lower priority than
 * the pod it makes room for, a node that returns ends Ready, time never goes backwards,
 * and the same input and seed give the same trace, byte for byte.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { FAILURE_KINDS, type Intervention } from '../../src/sim/scenario';
import { simulate, type SimulationResult } from '../../src/sim/simulate';
import type { StateInterval } from '../../src/sim/trace';
import { messageOf, scenarioOf, zonedCluster } from './support';

const RUNS = Number(process.env.KFS_PROPERTY_RUNS ?? 1000);

interface WorkloadChoice {
  kind: 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'Job' | 'Pod';
  replicas: number;
  /** NoExecute toleration seconds for not-ready/unreachable; null: none written (300 s by admission); -1: forever. */
  tolerationSeconds: number | null;
  volume: boolean;
  parallel: boolean;
  /** PriorityClass `low` (100) or `high` (1000); null: none (0). */
  priority: 'low' | 'high' | null;
  cpuMillis: number;
}

const PRIORITY_CLASSES = 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 100\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n';
const PRIORITY_VALUES = { low: 100, high: 1000 };

function workloadYaml(w: WorkloadChoice, i: number): string {
  const name = `${w.kind.toLowerCase()}-${i}`;
  const tolerations = w.tolerationSeconds === null ? '' : `      tolerations:
      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute${w.tolerationSeconds >= 0 ? `, tolerationSeconds: ${w.tolerationSeconds}` : ''}}
      - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute${w.tolerationSeconds >= 0 ? `, tolerationSeconds: ${w.tolerationSeconds}` : ''}}
`;
  const priority = w.priority ? `      priorityClassName: ${w.priority}\n` : '';
  const pod = `    metadata: {labels: {app: ${name}}}
    spec:
${priority}${tolerations}      containers: [{name: c, image: app, resources: {requests: {cpu: ${w.cpuMillis}m, memory: 64Mi}}}]
`;
  switch (w.kind) {
    case 'Pod':
      return `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}, namespace: p, labels: {app: ${name}}}\nspec:\n${(priority + tolerations).replace(/^ {4}/gm, '')}  containers: [{name: c, image: app}]\n`;
    case 'Job':
      return `apiVersion: batch/v1\nkind: Job\nmetadata: {name: ${name}, namespace: p}\nspec:\n  parallelism: ${w.replicas}\n  template:\n${pod}`;
    case 'DaemonSet':
      return `apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ${name}, namespace: p}\nspec:\n  selector: {matchLabels: {app: ${name}}}\n  template:\n${pod}`;
    case 'StatefulSet':
      return `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: ${name}, namespace: p}\nspec:\n  serviceName: ${name}\n  replicas: ${w.replicas}\n  podManagementPolicy: ${w.parallel ? 'Parallel' : 'OrderedReady'}\n  selector: {matchLabels: {app: ${name}}}\n  template:\n${pod}${w.volume ? '  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce]}\n' : ''}`;
    default:
      return `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}, namespace: p}\nspec:\n  replicas: ${w.replicas}\n  selector: {matchLabels: {app: ${name}}}\n  template:\n${pod}`;
  }
}

const scenarioArbitrary = fc.record({
  zones: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 }),
  workloads: fc.array(fc.record({
    kind: fc.constantFrom('Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'Pod'),
    replicas: fc.integer({ min: 1, max: 4 }),
    tolerationSeconds: fc.constantFrom(null, -1, 0, 10, 30, 120, 300),
    volume: fc.boolean(),
    parallel: fc.boolean(),
    priority: fc.constantFrom(null, 'low', 'high'),
    cpuMillis: fc.constantFrom(100, 100, 1500),
  }), { minLength: 1, maxLength: 4 }),
  failure: fc.constantFrom(...FAILURE_KINDS),
  targetCount: fc.integer({ min: 1, max: 4 }),
  /** Targets failing one after another (ms after the first failure), and kubelet.shutdownGracePeriod / ...CriticalPods. */
  staggerMs: fc.array(fc.integer({ min: 0, max: 120_000 }), { maxLength: 4 }),
  shutdown: fc.record({ seconds: fc.constantFrom(0, 1, 10, 30, 60), criticalSeconds: fc.constantFrom(0, 5) }),
  recoverAfterMs: fc.option(fc.integer({ min: 10_000, max: 15 * 60_000 }), { nil: undefined }),
  interventions: fc.array(fc.record({
    kind: fc.constantFrom('force-delete', 'delete', 'out-of-service', 'delete-node', 'restart-controller-manager'),
    atMs: fc.integer({ min: 0, max: 15 * 60_000 }),
  }), { maxLength: 2 }),
  minor: fc.integer({ min: 20, max: 36 }),
  profile: fc.constantFrom(undefined, 'default', 'fast', 'medium', 'slow'),
  durationMs: fc.integer({ min: 2 * 60_000, max: 20 * 60_000 }),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
});

type Generated = typeof scenarioArbitrary extends fc.Arbitrary<infer T> ? T : never;

function build(g: Generated) {
  const zones: Record<string, string[]> = {};
  g.zones.forEach((count, z) => (zones[`z${z}`] = Array.from({ length: count }, (_, i) => `n${z}-${i}`)));
  const nodes = Object.values(zones).flat();
  const targets = g.failure === 'zone-outage' ? ['zone/z0'] : nodes.slice(0, Math.min(g.targetCount, nodes.length)).map((n) => `node/${n}`);
  const failAtMs = Object.fromEntries(targets.flatMap((t, i) => (g.staggerMs[i] === undefined ? [] : [[t, g.staggerMs[i]]])));
  const interventions: Intervention[] = g.interventions.map((i) => (i.kind === 'force-delete' || i.kind === 'delete'
    ? { kind: i.kind, target: `${g.workloads[0].kind}/${g.workloads[0].kind.toLowerCase()}-0`, atMs: i.atMs }
    : { kind: i.kind as 'out-of-service' | 'delete-node' | 'restart-controller-manager', atMs: i.atMs }));
  return scenarioOf([PRIORITY_CLASSES, ...g.workloads.map(workloadYaml)], {
    cluster: zonedCluster(zones), targets, failAtMs, failure: g.failure, recoverAfterMs: g.recoverAfterMs, interventions,
    version: `1.${g.minor}`, profile: g.profile, durationMs: g.durationMs, seed: g.seed,
    set: { 'kubelet.shutdownGracePeriod': `${g.shutdown.seconds}s`, 'kubelet.shutdownGracePeriodCriticalPods': `${Math.min(g.shutdown.criticalSeconds, g.shutdown.seconds)}s` },
  });
}

function stateAt(states: StateInterval[], kind: string, name: string, t: number): StateInterval | undefined {
  return states.find((s) => s.object.kind === kind && s.object.name === name && s.from <= t && (s.to === null || s.to > t));
}

/** The event that began the node's current run of NoExecute taints at time t (the taints never all gone since). */
function noExecuteSince(events: SimulationResult['events'], node: string, t: number): { t: number } | undefined {
  const keys = new Set<string>();
  let since: { t: number } | undefined;
  for (const e of events) {
    if (e.t > t) break;
    if (e.object.name !== node || e.detail?.effect !== 'NoExecute' || (e.type !== 'TaintAdded' && e.type !== 'TaintRemoved')) continue;
    if (e.type === 'TaintAdded') {
      if (keys.size === 0) since = e;
      keys.add(String(e.detail.key));
    } else {
      keys.delete(String(e.detail.key));
      if (keys.size === 0) since = undefined;
    }
  }
  return since;
}

function checkInvariants(g: Generated, result: SimulationResult, graceMs: number, evictionRate: number): void {
  const { events, states } = result;
  // Time never goes backwards.
  for (let i = 1; i < events.length; i++) assert.ok(events[i].t >= events[i - 1].t, `event ${i} goes back in time`);
  for (const s of states) assert.ok(s.to === null || s.to >= s.from, 'interval ends before it starts');

  const outOfServiceAt = new Map<string, number>();
  for (const e of events) if (e.type === 'TaintAdded' && e.detail?.key === 'node.kubernetes.io/out-of-service' && !outOfServiceAt.has(e.object.name)) outOfServiceAt.set(e.object.name, e.t);
  const workloadOf = (pod: string) => g.workloads.findIndex((w, i) => pod.startsWith(`${w.kind.toLowerCase()}-${i}`));

  // Preemption deletes only pods of a lower priority than the pod it makes room for, and the scheduler deletes no other pod.
  const priorityOf = (pod: string) => {
    const choice = g.workloads[workloadOf(pod)].priority;
    return choice ? PRIORITY_VALUES[choice] : 0;
  };
  const announced = new Map<string, number>();
  for (const e of events) {
    if (e.reason === 'Preempted') {
      assert.ok(priorityOf(e.object.name) < priorityOf(String(e.detail?.preemptor)), `${e.object.name} preempted for ${e.detail?.preemptor}`);
      announced.set(e.object.name, (announced.get(e.object.name) ?? 0) + 1);
    }
    if (e.type === 'PodDeletionStarted' && e.detail?.by === 'default-scheduler') {
      assert.ok((announced.get(e.object.name) ?? 0) > 0, `${e.object.name} deleted by the scheduler unannounced`);
      announced.set(e.object.name, announced.get(e.object.name)! - 1);
    }
  }

  // No node holds more CPU requests than it has (4 CPU): the scheduler counts a pod from its choice, before the binding lands.
  const cpuOf = (pod: string) => {
    const w = g.workloads[workloadOf(pod)];
    return w.kind === 'Pod' ? 0 : w.cpuMillis;
  };
  const boundTo = new Map<string, string>();
  const used = new Map<string, number>();
  const bind = (pod: string, node: string, delta: number) => {
    used.set(node, (used.get(node) ?? 0) + delta * cpuOf(pod));
    assert.ok(used.get(node)! <= 4000, `${node} holds ${used.get(node)}m of CPU requests with ${pod}`);
  };
  for (const s of states) {
    if (s.object.kind !== 'Pod' || s.from > 0 || s.node === undefined || s.node === '<none>' || boundTo.has(s.object.name)) continue;
    boundTo.set(s.object.name, s.node);
    bind(s.object.name, s.node, 1);
  }
  for (const e of events) {
    if (e.type === 'PodScheduled' && !boundTo.has(e.object.name)) {
      boundTo.set(e.object.name, String(e.detail!.node));
      bind(e.object.name, String(e.detail!.node), 1);
    } else if (e.type === 'PodRemoved' && boundTo.has(e.object.name)) {
      bind(e.object.name, boundTo.get(e.object.name)!, -1);
      boundTo.delete(e.object.name);
    }
  }

  // 2. Ready=Unknown never earlier than G after the last heartbeat.
  for (const e of events) {
    if (e.type !== 'NodeCondition' || e.detail?.status !== 'Unknown') continue;
    const heartbeat = [...events].reverse().find((h) => h.t <= e.t && h.reason === 'LastHeartbeat' && h.object.name === e.object.name);
    assert.ok(heartbeat, `${e.object.name} Unknown without a stopped heartbeat`);
    const last = Math.max(heartbeat.detail!.lastLeaseRenewalMs as number, heartbeat.detail!.lastStatusPostMs as number);
    assert.ok(e.t > last + graceMs, `${e.object.name} Unknown at ${e.t}, last heartbeat ${last}, grace ${graceMs}`);
  }

  for (const e of events) {
    if (e.type !== 'PodDeletionStarted' || !/taint|node-lifecycle/.test(String(e.detail?.by))) continue;
    const node = String(e.detail?.node);
    const outOfService = outOfServiceAt.has(node) && outOfServiceAt.get(node)! <= e.t;
    const w = g.workloads[workloadOf(e.object.name)];
    // 4. DaemonSet pods are never deleted by the node-failure machinery.
    if (w.kind === 'DaemonSet') assert.ok(outOfService, `DaemonSet pod ${e.object.name} deleted at ${e.t}`);
    // 1. No deletion earlier than taint observation + min(tolerationSeconds).
    if (!outOfService) {
      // The eviction clock starts with the first of the node's NoExecute taints; swapping them does not restart it (SEMANTICS.md 4).
      // The deletion may land just after the taints went: the controller decided before (a watch and a write, ≤ 200 ms).
      const taint = noExecuteSince(events, node, e.t) ?? noExecuteSince(events, node, e.t - 200);
      assert.ok(taint, `${e.object.name} deleted without a NoExecute taint on ${node}`);
      assert.notEqual(w.tolerationSeconds, -1, `${e.object.name} tolerates forever but was deleted`);
      const seconds = w.tolerationSeconds ?? 300;
      // A new controller-manager leader times from its own start, which may precede the taint it writes again.
      const firstTaint = events.find((t) => t.type === 'TaintAdded' && t.object.name === node && t.detail?.effect === 'NoExecute')!;
      const takeover = [...events].reverse().find((l) => l.reason === 'LeaderElection' && l.t <= e.t && l.t >= firstTaint.t);
      const reference = takeover ? Math.min(taint.t, takeover.t) : taint.t;
      assert.ok(e.t >= reference + seconds * 1000, `${e.object.name} deleted at ${e.t}, taint at ${taint.t}, toleration ${seconds}s`);
    }
  }

  // 3. A StatefulSet never has two objects with the same name.
  const start = Math.min(0, ...events.map((e) => e.t));
  const createdAtStart = new Set(events.filter((e) => e.type === 'PodCreated' && e.t === start).map((e) => e.object.name));
  const live = new Set(states.filter((st) => st.object.kind === 'Pod' && st.from === start && !createdAtStart.has(st.object.name)).map((st) => st.object.name));
  for (const e of events) {
    if (e.object.kind !== 'Pod') continue;
    if (e.type === 'PodCreated') {
      assert.ok(!live.has(e.object.name), `${e.object.name} created while the old object exists`);
      live.add(e.object.name);
    }
    if (e.type === 'PodRemoved') live.delete(e.object.name);
  }

  // 5. NoExecute tainting per zone never faster than the token bucket (one token, refilled at the eviction rate).
  const zoneOf = (node: string) => node.split('-')[0];
  const lastTaint = new Map<string, number>();
  const noExecuteKeys = new Map<string, Set<string>>();
  for (const e of events) {
    if ((e.type !== 'TaintAdded' && e.type !== 'TaintRemoved') || e.detail?.effect !== 'NoExecute') continue;
    let keys = noExecuteKeys.get(e.object.name);
    if (!keys) noExecuteKeys.set(e.object.name, (keys = new Set()));
    const swap = keys.size > 0;
    if (e.type === 'TaintRemoved') keys.delete(String(e.detail.key));
    else keys.add(String(e.detail.key));
    // Swapping not-ready and unreachable is not rate limited (SEMANTICS.md 3.4); only a node's first taint takes a token.
    if (e.type !== 'TaintAdded' || swap || e.detail?.by !== 'node-lifecycle-controller') continue;
    const previous = lastTaint.get(zoneOf(e.object.name));
    if (previous !== undefined) assert.ok(e.t - previous >= 1000 / evictionRate - 150, `zone ${zoneOf(e.object.name)}: taints ${previous} and ${e.t}`);
    lastTaint.set(zoneOf(e.object.name), e.t);
  }

  // 6. A volume is force-detached only from a node that is not Ready, 6 minutes after the detach request.
  for (const e of events) {
    if (e.type !== 'VolumeDetached' || !/force detach/.test(messageOf(e))) continue;
    assert.ok(e.t >= (e.detail!.detachRequestedMs as number) + 360_000, `force detach at ${e.t}`);
    assert.notEqual(stateAt(states, 'Node', String(e.detail!.node), e.t)?.ready, 'True');
  }

  // 8. An RWO volume is never attached to two nodes at once (SEMANTICS.md 15.4 #6, 7.3): each attach finds the
  // volume detached (or on that node), each detach is from the node it was on. The pods running at the start
  // had their volumes attached without an event: StatefulSet claim data-POD, volume pvc-p-data-POD.
  const attachedTo = new Map<string, string>();
  for (const st of states) {
    if (st.object.kind !== 'Pod' || st.from !== start || st.status !== 'Running') continue;
    const w = g.workloads[workloadOf(st.object.name)];
    if (w?.kind === 'StatefulSet' && w.volume) attachedTo.set(`pvc-p-data-${st.object.name}`, st.node!);
  }
  for (const e of events) {
    if (e.type !== 'VolumeAttached' && e.type !== 'VolumeDetached') continue;
    const volume = e.object.name;
    const node = String(e.detail?.node);
    const current = attachedTo.get(volume);
    if (e.type === 'VolumeAttached') {
      assert.ok(current === undefined || current === node, `${volume} attached to ${node} at ${e.t} while attached to ${current}`);
      attachedTo.set(volume, node);
    } else {
      assert.equal(current, node, `${volume} detached from ${node} at ${e.t}, but it was attached to ${current}`);
      attachedTo.delete(volume);
    }
  }

  // 7. A graceful shutdown never leaves a pod Running on the stopped node: from its power-off until it returns, none runs there
  // (when the feature is on: shutdownGracePeriod > 0, from 1.21).
  if (g.failure === 'graceful-shutdown' && g.shutdown.seconds > 0 && g.minor >= 21) {
    for (const off of events.filter((e) => e.reason === 'LastHeartbeat')) {
      const node = off.object.name;
      const back = events.find((e) => e.type === 'Recovery' && e.object.name === node && e.t >= off.t)?.t ?? Infinity;
      const sample = off.t + 500;
      if (sample >= back) continue;
      const running = states.filter((s) => s.object.kind === 'Pod' && s.node === node && s.status === 'Running' && s.from <= sample && (s.to === null || s.to > sample));
      assert.deepEqual(running.map((s) => s.object.name), [], `pods Running on ${node} after its shutdown at ${off.t}`);
      assert.ok(!events.some((e) => e.type === 'PodRunning' && e.detail?.node === node && e.t > off.t && e.t < back), `a pod started on ${node} while it was down`);
    }
  }

  // 10. A node that returns and keeps its Node object ends Ready: its kubelet's status post is a heartbeat, and a
  // Ready=Unknown written across it is put back at the kubelet's next status sync. Its last return must leave time for
  // the lease retry (7 s), a status sync (10.4 s), a grace period and a sync after the controller's write.
  for (const back of events.filter((e) => e.type === 'Recovery' && e.object.kind === 'Node')) {
    const node = back.object.name;
    const later = events.some((e) => e.object.name === node && e.t > back.t && (e.type === 'Fault' || e.type === 'NodeDeleted' || e.type === 'Recovery'));
    if (later || events.some((e) => e.type === 'NodeDeleted' && e.object.name === node)) continue;
    const final = states.find((s) => s.object.kind === 'Node' && s.object.name === node && s.to === null);
    if (!final || g.durationMs < back.t + graceMs + 40_000) continue;
    assert.equal(final.ready, 'True', `${node} back at ${back.t} ends ${final.ready} (from ${final.from})`);
  }

  // 9. A workload's READY never exceeds its DESIRED (a DaemonSet's numberReady counts only the nodes it should run on).
  for (const st of states) {
    const count = /^(\d+)\/(\d+)$/.exec(st.ready ?? '');
    if (count && st.object.kind !== 'Pod' && st.object.kind !== 'Node' && st.object.kind !== 'EndpointSlice') {
      assert.ok(Number(count[1]) <= Number(count[2]), `${st.object.kind}/${st.object.name} ${st.ready} at ${st.from}`);
    }
  }

  // No pod is bound to a node that carried a NoSchedule taint from before the scheduler's decision
  // (20 ms: its watch and write latencies) until the binding.
  const noSchedule = (s: StateInterval | undefined) => (s?.taints ?? []).filter((t) => t.endsWith(':NoSchedule'));
  for (const e of events) {
    if (e.type !== 'PodScheduled') continue;
    const before = noSchedule(stateAt(states, 'Node', String(e.detail!.node), e.t - 20));
    const throughout = noSchedule(stateAt(states, 'Node', String(e.detail!.node), e.t)).filter((t) => before.includes(t));
    assert.deepEqual(throughout, [], `${e.object.name} bound at ${e.t} to ${e.detail!.node}`);
  }
}

describe(`simulator properties over random scenarios (fast-check, ${RUNS.toLocaleString('en-US')} runs)`, () => {
  it('keeps the invariants and is deterministic', function () {
    this.timeout(600_000);
    fc.assert(fc.property(scenarioArbitrary, (g) => {
      const scenario = build(g);
      const first = simulate(scenario);
      const second = simulate(build(g));
      assert.equal(JSON.stringify(second), JSON.stringify(first), 'same input and seed, same trace');
      const grace = scenario.timing.controllerManager.nodeMonitorGracePeriod.value;
      const rate = scenario.timing.controllerManager.nodeEvictionRate.value;
      checkInvariants(g, first, grace, rate);
    }), { numRuns: RUNS, seed: Number(process.env.KFS_PROPERTY_SEED ?? 20261121) });
  });
});
