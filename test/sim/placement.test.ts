/**
 * Placement as kube-scheduler scores nodes (schedulerScore.ts), and the worst and spread
 * placements of --placement. The healthy layout before the failure is where pods are placed.
 */
import * as assert from 'node:assert/strict';
import type { SimulationResult } from '../../src/sim/simulate';
import { renderSummary, scenarioHeader } from '../../src/report/textReport';
import { simulate } from '../../src/sim/simulate';
import { daemonSet, deployment, flatCluster, messageOf, reasonOf, run, scenarioOf } from './support';

const nodesOf = (result: SimulationResult, prefix: string) => result.states.filter((s) => s.object.kind === 'Pod' && s.from === 0 && s.object.name.startsWith(prefix)).map((s) => s.node!);
const tenNodes = flatCluster(Array.from({ length: 10 }, (_, i) => `n${String(i).padStart(2, '0')}`));
const SHORT = { durationMs: 60_000 };

describe('placement: kube-scheduler\'s default scoring', () => {
  it('independent pods without requests spread over the nodes (scored with the default 100m CPU / 200 MB requests)', () => {
    const result = run(['a', 'b', 'c', 'd'].map((n) => deployment(n, 1)), { cluster: tenNodes, ...SHORT });
    const nodes = ['a', 'b', 'c', 'd'].flatMap((n) => nodesOf(result, `${n}-`));
    assert.equal(new Set(nodes).size, 4, `placed on ${nodes}`);
  });

  it('replicas follow the system-default topology spreading: one per zone, then one per node', () => {
    const three = run([deployment('web', 3)], SHORT);
    assert.deepEqual(nodesOf(three, 'web-').map((n) => n.slice(0, -1)).sort(), ['worker-a', 'worker-b', 'worker-c']);
    const six = run([deployment('web', 6)], SHORT);
    assert.equal(new Set(nodesOf(six, 'web-')).size, 6);
    const twelve = run([deployment('web', 12)], SHORT);
    const perNode = new Map<string, number>();
    for (const n of nodesOf(twelve, 'web-')) perNode.set(n, (perNode.get(n) ?? 0) + 1);
    assert.deepEqual([...perNode.values()], [2, 2, 2, 2, 2, 2]);
  });

  it('preferred node affinity draws pods to the preferred nodes', () => {
    const preferred = `      affinity:
        nodeAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 80
            preference: {matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [worker-c2]}]}
`;
    const result = run([deployment('web', 1, preferred)], SHORT);
    assert.deepEqual(nodesOf(result, 'web-'), ['worker-c2']);
  });

  it('preferred pod affinity draws a pod next to the pods it prefers', () => {
    const cache = run([deployment('cache', 1, '      nodeSelector: {kubernetes.io/hostname: worker-b2}\n'), deployment('api', 1, `      affinity:
        podAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 100
            podAffinityTerm: {labelSelector: {matchLabels: {app: cache}}, topologyKey: kubernetes.io/hostname}
`)], SHORT);
    assert.deepEqual(nodesOf(cache, 'api-'), ['worker-b2']);
  });

  it('a node with an untolerated PreferNoSchedule taint is avoided while others fit', () => {
    const cluster = flatCluster(['n1', 'n2']);
    cluster.nodes[0].taints = [{ key: 'spot', value: 'true', effect: 'PreferNoSchedule' }];
    const result = run([deployment('web', 1)], { cluster, ...SHORT });
    assert.deepEqual(nodesOf(result, 'web-'), ['n2']);
  });

  it('required pod affinity puts a pod in the topology domain of the pods it needs', () => {
    const needs = (topologyKey: string) => `      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {labelSelector: {matchLabels: {app: cache}}, topologyKey: ${topologyKey}}
`;
    const cache = deployment('cache', 1, '      nodeSelector: {kubernetes.io/hostname: worker-b2}\n');
    assert.deepEqual(nodesOf(run([cache, deployment('api', 2, needs('kubernetes.io/hostname'))], SHORT), 'api-'), ['worker-b2', 'worker-b2']);
    const zone = nodesOf(run([cache, deployment('api', 2, needs('topology.kubernetes.io/zone'))], SHORT), 'api-');
    assert.deepEqual(zone.map((n) => n.slice(0, -1)), ['worker-b', 'worker-b']);
  });

  it('required pod affinity to pods that do not exist leaves the pod Pending with the scheduler\'s message', () => {
    const lonely = deployment('api', 1, `      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {labelSelector: {matchLabels: {app: cache}}, topologyKey: kubernetes.io/hostname}
`);
    const result = run([deployment('web', 1), lonely], SHORT);
    assert.equal(result.summary.workloads.find((w) => w.object.name === 'api')!.pendingBeforeFailure?.message,
      "0/6 nodes are available: 6 node(s) didn't match pod affinity rules. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.");
  });

  it('an affinity term looks at the pods of its namespaces and of those its namespaceSelector selects (by the labels of Namespace objects); neither: the pod\'s own', () => {
    const term = (extra: string) => `      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {labelSelector: {matchLabels: {app: cache}}, topologyKey: kubernetes.io/hostname${extra}}
`;
    const cache = deployment('cache', 1, '      nodeSelector: {kubernetes.io/hostname: worker-b2}\n');
    const placed = (extra: string) => nodesOf(run([cache, deployment('api', 1, term(extra))], SHORT), 'api-');
    assert.deepEqual(placed(''), ['worker-b2']);
    // The cache runs in the pods' own namespace: a term naming only another one finds nothing, and the pod cannot start the group either.
    assert.deepEqual(placed(', namespaces: [elsewhere]'), ['<none>']);
    assert.deepEqual(placed(', namespaces: [elsewhere], namespaceSelector: {}'), ['worker-b2']);
    assert.deepEqual(placed(', namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: truth}}'), ['worker-b2']);
    assert.deepEqual(placed(', namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: elsewhere}}'), ['<none>']);
    // Before 1.22 the API server drops a namespaceSelector (PodAffinityNamespaceSelector off).
    assert.deepEqual(nodesOf(run([cache, deployment('api', 1, term(', namespaces: [elsewhere], namespaceSelector: {}'))], { ...SHORT, version: '1.21' }), 'api-'), ['<none>']);
    // A pod starts its own group only when the term looks in its namespace; a namespace's other labels are assumed to select its own.
    const selfAffinity = (extra: string) => `      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {labelSelector: {matchLabels: {app: api}}, topologyKey: kubernetes.io/hostname${extra}}
`;
    const own = (extra: string) => nodesOf(run([deployment('api', 2, selfAffinity(extra))], { ...SHORT, targets: ['node/worker-a1'] }), 'api-');
    assert.equal(new Set(own('')).size, 1);
    assert.ok(!own('').includes('<none>'));
    assert.deepEqual(own(', namespaces: [elsewhere]'), ['<none>', '<none>']);
    assert.ok(!own(', namespaceSelector: {matchLabels: {team: x}}').includes('<none>'));
    assert.deepEqual(own(', namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: elsewhere, team: x}}'), ['<none>', '<none>']);
    // A namespace the input declares is selected by its labels, the pod's own as any other.
    const namespace = (labels: string) => `apiVersion: v1\nkind: Namespace\nmetadata: {name: truth, labels: {${labels}}}\n`;
    const declared = (labels: string, extra: string) => nodesOf(run([namespace(labels), cache, deployment('api', 1, term(extra))], SHORT), 'api-');
    assert.deepEqual(declared('team: a', ', namespaces: [elsewhere], namespaceSelector: {matchLabels: {team: a}}'), ['worker-b2']);
    assert.deepEqual(declared('team: b', ', namespaces: [elsewhere], namespaceSelector: {matchLabels: {team: a}}'), ['<none>']);
    assert.deepEqual(declared('team: b', ', namespaceSelector: {matchExpressions: [{key: team, operator: NotIn, values: [a]}]}'), ['worker-b2']);
    const ownDeclared = (labels: string) => nodesOf(run([namespace(labels), deployment('api', 2, selfAffinity(', namespaceSelector: {matchLabels: {team: x}}'))], { ...SHORT, targets: ['node/worker-a1'] }), 'api-');
    assert.deepEqual(ownDeclared('team: y'), ['<none>', '<none>']);
    assert.ok(!ownDeclared('team: x').includes('<none>'));
    // Nor on a node without the term's topology label (satisfyPodAffinity: every topology label must exist).
    const rack = nodesOf(run([deployment('api', 2, selfAffinity('').replace('kubernetes.io/hostname', 'example.com/rack'))], { ...SHORT, targets: ['node/worker-a1'] }), 'api-');
    assert.deepEqual(rack, ['<none>', '<none>']);
  });

  it('preferred pod anti-affinity moves a pod away from the pods it avoids, against a weaker preference', () => {
    const cluster = flatCluster(['n1', 'n2']);
    const a = deployment('a', 1, '      nodeSelector: {kubernetes.io/hostname: n2}\n');
    const prefersN2 = `      affinity:
        nodeAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 100
            preference: {matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [n2]}]}
`;
    const avoidsA = `        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 100
            podAffinityTerm: {labelSelector: {matchLabels: {app: a}}, topologyKey: kubernetes.io/hostname}
`;
    // Without the anti-affinity the node preference wins; with it, the tie (2 × 100 each) goes to the less allocated n1.
    assert.deepEqual(nodesOf(run([a, deployment('b', 1, prefersN2)], { cluster, ...SHORT }), 'b-'), ['n2']);
    assert.deepEqual(nodesOf(run([a, deployment('b', 1, prefersN2 + avoidsA)], { cluster, ...SHORT }), 'b-'), ['n1']);
  });

  it('when no node has enough memory the scheduler\'s message says so (Insufficient memory)', () => {
    const big = deployment('big', 1).replace('image: registry.k8s.io/pause:3.9}', 'image: registry.k8s.io/pause:3.9, resources: {requests: {memory: 20Gi}}}');
    const result = run([deployment('web', 1), big], SHORT);
    assert.equal(result.summary.workloads.find((w) => w.object.name === 'big')!.pendingBeforeFailure?.message,
      '0/6 nodes are available: 6 Insufficient memory. preemption: 0/6 nodes are available: 6 No preemption victims found for incoming pod.');
  });

  it('when no node has room the scheduler\'s message says so (Insufficient cpu)', () => {
    const big = deployment('big', 1).replace('image: registry.k8s.io/pause:3.9}', 'image: registry.k8s.io/pause:3.9, resources: {requests: {cpu: "5"}}}');
    const result = run([deployment('web', 1), big], SHORT);
    const summary = result.summary.workloads.find((w) => w.object.name === 'big')!;
    assert.equal(summary.pendingBeforeFailure?.message, '0/6 nodes are available: 6 Insufficient cpu. preemption: 0/6 nodes are available: 6 No preemption victims found for incoming pod.');
  });

  it('an init container that needs more than the app counts while it runs; a native sidecar adds to the app (PodRequests)', () => {
    // 4 CPU nodes: an app of 1 CPU whose migration needs 5 fits nowhere; 3.5 CPU of app and a 1 CPU sidecar neither.
    const withInit = (name: string, app: string, init: string) => deployment(name, 1, `      initContainers: [${init}]\n`)
      .replace('image: registry.k8s.io/pause:3.9}', `image: registry.k8s.io/pause:3.9, resources: {requests: {cpu: "${app}"}}}`);
    const migration = withInit('migrate', '1', '{name: m, image: m, resources: {requests: {cpu: "5"}}}');
    const sidecar = withInit('proxied', '3.5', '{name: proxy, image: envoy, restartPolicy: Always, resources: {requests: {cpu: "1"}}}');
    const fits = withInit('fits', '3.5', '{name: m, image: m, resources: {requests: {cpu: "1"}}}');
    const summaries = run([fits, migration, sidecar], SHORT).summary.workloads;
    for (const name of ['migrate', 'proxied']) {
      assert.equal(summaries.find((w) => w.object.name === name)!.pendingBeforeFailure?.message,
        '0/6 nodes are available: 6 Insufficient cpu. preemption: 0/6 nodes are available: 6 No preemption victims found for incoming pod.', name);
    }
    assert.equal(summaries.find((w) => w.object.name === 'fits')!.pendingBeforeFailure, null);
  });
});

describe('placement: what preemption could do, in the scheduler\'s message', () => {
  it('anti-affinity and a topology-spread skew could be resolved by preemption (No preemption victims found); an untolerated taint cannot', () => {
    const zoneAnti = '      affinity:\n        podAntiAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n          - {labelSelector: {matchLabels: {app: zk}}, topologyKey: topology.kubernetes.io/zone}\n';
    const zk = run([deployment('zk', 3, zoneAnti)], { durationMs: 8 * 60_000 }).summary.workloads[0];
    assert.equal(zk.outcome, 'pending');
    assert.match(zk.cause.kind === 'replacement-pending' ? zk.cause.message ?? '' : '',
      /^0\/6 nodes are available: 1 node\(s\) had untolerated taint.*, 5 node\(s\) didn't match pod anti-affinity rules\. preemption: 0\/6 nodes are available: 1 Preemption is not helpful for scheduling, 5 No preemption victims found for incoming pod\.$/);
    const spread = '      topologySpreadConstraints: [{maxSkew: 1, topologyKey: example.com/rack, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: s}}}]\n';
    const unlabelled = run([deployment('web', 1), deployment('s', 1, spread)], SHORT).summary.workloads[1];
    assert.equal(unlabelled.pendingBeforeFailure?.message,
      "0/6 nodes are available: 6 node(s) didn't match pod topology spread constraints (missing required label). preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.");
  });
});

describe('placement: topology spreading after a node failure', () => {
  it('a DoNotSchedule replacement stays Pending: the dead node\'s domain counts, its Terminating pod does not (countPodsMatchSelector)', () => {
    const spread = '      topologySpreadConstraints: [{maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: s}}}]\n';
    const result = run([deployment('s', 6, spread)], { targets: ['node/worker-a1'], durationMs: 10 * 60_000 });
    const s = result.summary.workloads[0];
    assert.equal(s.outcome, 'pending');
    assert.match(s.cause.kind === 'replacement-pending' ? s.cause.message ?? '' : '',
      /^0\/6 nodes are available: 1 node\(s\) had untolerated taint.*, 5 node\(s\) didn't match pod topology spread constraints\. /);
    // Back and untainted, the node is the one domain the replacement fits.
    const back = run([deployment('s', 6, spread)], { targets: ['node/worker-a1'], recoverAfterMs: 7 * 60_000, durationMs: 12 * 60_000 });
    const replacement = back.events.find((e) => e.type === 'PodScheduled' && e.t > 0);
    assert.equal(replacement?.detail?.node, 'worker-a1');
  });

  it('a pod that its own constraint\'s selector does not match is not counted in its domain (selfMatchNum 0)', () => {
    const on = (node: string) => `      nodeSelector: {kubernetes.io/hostname: ${node}}\n`;
    const cpu = (millis: number) => (text: string) => text.replace('image: registry.k8s.io/pause:3.9}', `image: registry.k8s.io/pause:3.9, resources: {requests: {cpu: ${millis}m}}}`);
    // zone-a: worker-a1 runs one pod of "other", worker-a2 has no room left; s may go to either and counts "other" pods.
    const spreadOverOthers = '      nodeSelector: {topology.kubernetes.io/zone: zone-a}\n      topologySpreadConstraints: [{maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: other}}}]\n';
    const result = run([deployment('other', 1, on('worker-a1')), cpu(3500)(deployment('filler', 1, on('worker-a2'))), cpu(1000)(deployment('s', 1, spreadOverOthers))], { targets: ['node/worker-b1'], durationMs: 60_000 });
    // On worker-a1 the skew is 1 + 0 - 0, within maxSkew 1: s runs there.
    assert.ok(result.states.some((st) => st.object.kind === 'Pod' && st.object.name.startsWith('s-') && st.node === 'worker-a1' && st.status === 'Running'));
  });

  it('nodeTaintsPolicy Honor leaves the dead node\'s domain out from 1.26; in 1.25 its feature gate is off and the API server drops the field', () => {
    const honor = '      topologySpreadConstraints: [{maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, nodeTaintsPolicy: Honor, labelSelector: {matchLabels: {app: s}}}]\n';
    const outcome = (version: string) => run([deployment('s', 6, honor)], { targets: ['node/worker-a1'], durationMs: 10 * 60_000, version }).summary.workloads[0].outcome;
    assert.equal(outcome('1.26'), 'replaced');
    assert.equal(outcome('1.25'), 'pending');
  });
});

describe('placement: preemption (DefaultPreemption)', () => {
  const cpu = (text: string) => text.replace('image: registry.k8s.io/pause:3.9}', 'image: registry.k8s.io/pause:3.9, resources: {requests: {cpu: 3000m}}}');
  const priorityClass = (name: string, value: number, extra = '') => `apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: ${name}}\nvalue: ${value}\n${extra}`;
  // Six 4-CPU nodes, one 3-CPU pod on each: the replacement of \`important\` fits nowhere once its node is gone.
  const crowded = (fillers: string[], important = '      priorityClassName: high\n', options: Partial<Parameters<typeof run>[1]> = {}, extra: string[] = [priorityClass('high', 1000)]) =>
    run([...extra, cpu(deployment('important', 1, important)), ...fillers.map(cpu)], { targets: ['Deployment/important'], durationMs: 10 * 60_000, ...options });
  const byName = (result: SimulationResult, name: string) => result.summary.workloads.find((w) => w.object.name === name)!;
  const victimsOf = (result: SimulationResult) => result.events.filter((e) => e.reason === 'Preempted');

  it('deletes a pod of a lower priority where that lets the replacement in; the replacement holds the room and runs there, the victim\'s own replacement waits', () => {
    const result = crowded([deployment('filler', 5)]);
    const [preempted, ...more] = victimsOf(result);
    assert.equal(more.length, 0);
    assert.match(preempted.object.name, /^filler-/);
    assert.equal(preempted.type, 'KubernetesEvent');
    const victimNode = String(preempted.detail?.message).replace(/^.* on node /, '');
    assert.match(String(preempted.detail?.message), /^Preempted by pod [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12} on node worker-/);
    const victimEvents = result.events.filter((e) => e.object.name === preempted.object.name && e.t >= 0);
    assert.ok(victimEvents.some((e) => e.type === 'PodCondition' && e.reason === 'PreemptionByScheduler' && e.detail?.message === 'default-scheduler: preempting to accommodate a higher priority pod'));
    assert.ok(victimEvents.some((e) => e.type === 'PodDeletionStarted' && e.detail?.by === 'default-scheduler'));
    const removed = victimEvents.find((e) => e.type === 'PodRemoved')!;
    // The preemptor's cycle fails without a preemption part, naming its nominated node; it is bound there only once the victim is gone.
    const preemptor = String(preempted.detail?.preemptor);
    const nominated = result.events.find((e) => e.object.name === preemptor && e.reason === 'FailedScheduling' && e.detail?.nominatedNode);
    assert.equal(nominated?.detail?.nominatedNode, victimNode);
    assert.doesNotMatch(String(nominated?.detail?.message), /preemption:/);
    const bound = result.events.find((e) => e.object.name === preemptor && e.type === 'PodScheduled')!;
    assert.equal(bound.detail?.node, victimNode);
    assert.ok(bound.t > removed.t);
    const important = byName(result, 'important');
    assert.equal(important.outcome, 'replaced');
    assert.match(reasonOf(important), /To make room for its pods the scheduler deleted a pod of a lower priority: filler-\S+ \(Deployment\/filler\) on worker-\S+ at 5m\d/);
    // The filler's replacement found the freed node held for the preemptor, and nothing of a lower priority to preempt.
    const filler = byName(result, 'filler');
    assert.equal(filler.outcome, 'pending');
    assert.equal(filler.preemptions?.lost.length, 1);
    assert.match(reasonOf(filler), /No preemption victims found for incoming pod\. The scheduler deleted one of its pods to make room for pods of a higher priority: filler-\S+ on worker-\S+ at 5m[\d.]+s, for important-\S+ \(Deployment\/important\)\.$/);
  });

  it('chooses the node whose victims matter least: the lowest priority, and none a PodDisruptionBudget protects', () => {
    const mid = priorityClass('mid', 500);
    const lowest = crowded([deployment('cheap', 2), deployment('valued', 3, '      priorityClassName: mid\n')], undefined, {}, [priorityClass('high', 1000), mid]);
    assert.deepEqual(victimsOf(lowest).map((e) => e.object.name.replace(/-.*/, '')), ['cheap']);
    // Equal priorities: a budget that allows no disruption keeps its pods out of it.
    const budget = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: keep, namespace: truth}\nspec: {minAvailable: 2, selector: {matchLabels: {app: kept}}}\n';
    const protectedRun = crowded([deployment('kept', 2), deployment('spare', 3)], undefined, {}, [priorityClass('high', 1000), budget]);
    assert.deepEqual(victimsOf(protectedRun).map((e) => e.object.name.replace(/-.*/, '')), ['spare']);
    const victimUnder = (budgets: string[]) => (seed: number) => victimsOf(crowded([deployment('kept', 2), deployment('spare', 3)], undefined, { seed }, [priorityClass('high', 1000), ...budgets]))[0].object.name.replace(/-.*/, '');
    assert.ok([1, 2, 3, 4, 5, 6, 7, 8].some((seed) => victimUnder([])(seed) === 'kept'), 'without the budget, kept is a victim in some run');
    // A budget with an empty selector protects nothing from preemption (filterPodsWithPDBViolation), whatever policy/v1 says of drains.
    const everything = budget.replace('selector: {matchLabels: {app: kept}}', 'selector: {}');
    assert.ok([1, 2, 3, 4, 5, 6, 7, 8].some((seed) => victimUnder([everything])(seed) === 'kept'), 'an empty selector protects nothing');
  });

  it('holds every resource of the nominated pod: GPUs and host ports too, not only cpu and memory', () => {
    const gpuNodes = { source: 'test', nodes: ['g1', 'g2', 'g3'].map((name) => ({ name, labels: { 'kubernetes.io/hostname': name }, taints: [], unschedulable: false, allocatable: { cpuMillis: 4000, memoryBytes: 16 * 2 ** 30, pods: 110, extended: { 'nvidia.com/gpu': 1 } } })) };
    const gpu = (text: string) => text.replace('image: registry.k8s.io/pause:3.9}', 'image: registry.k8s.io/pause:3.9, resources: {limits: {nvidia.com/gpu: 1}}}');
    const port = (text: string) => text.replace('image: registry.k8s.io/pause:3.9}', 'image: registry.k8s.io/pause:3.9, ports: [{containerPort: 80, hostPort: 8080}]}');
    const runningOn = (result: SimulationResult) => result.states.filter((st) => st.object.kind === 'Pod' && st.to === null && st.status === 'Running').map((st) => st.node!);
    for (const seed of [1, 2, 3, 4]) {
      const gpus = run([priorityClass('high', 1000), gpu(deployment('important', 1, '      priorityClassName: high\n')), gpu(deployment('filler', 2))], { cluster: gpuNodes, targets: ['Deployment/important'], durationMs: 10 * 60_000, seed });
      assert.equal(victimsOf(gpus).length, 1);
      assert.equal(new Set(runningOn(gpus)).size, runningOn(gpus).length, `seed ${seed}: one GPU pod per node`);
      const ports = run([priorityClass('high', 1000), port(deployment('important', 1, '      priorityClassName: high\n')), port(deployment('filler', 5))], { targets: ['Deployment/important'], durationMs: 10 * 60_000, seed });
      assert.equal(victimsOf(ports).length, 1);
      assert.equal(new Set(runningOn(ports)).size, runningOn(ports).length, `seed ${seed}: one pod per node on host port 8080`);
    }
  });

  it('a Job that fails for a preempted pod ends stuck with its Failed condition, and the pods Pending before the failure are those of the lowest priority', () => {
    const job = 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: batch, namespace: truth}\nspec:\n  parallelism: 5\n  backoffLimit: 0\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: registry.k8s.io/pause:3.9}]\n';
    const failedJob = byName(crowded([job]), 'batch');
    assert.equal(failedJob.outcome, 'stuck');
    assert.equal(failedJob.cause.kind, 'job-failed');
    assert.match(reasonOf(failedJob), /BackoffLimitExceeded.* The scheduler deleted one of its pods to make room for pods of a higher priority: batch-/);
    // Six 3-CPU pods of the filler fill the six nodes when listed first; the important one is placed first all the same, as preemption would have settled it.
    const before = run([priorityClass('high', 1000), cpu(deployment('filler', 6)), cpu(deployment('important', 1, '      priorityClassName: high\n'))], { targets: ['node/worker-c2'], durationMs: 60_000 });
    assert.equal(byName(before, 'important').pendingBeforeFailure, null);
    assert.equal(byName(before, 'filler').pendingBeforeFailure?.pods, 1);
    assert.equal(victimsOf(before).length, 0);
  });

  it('does not preempt for preemptionPolicy Never, for a pod of no higher priority, or for a class the input does not declare', () => {
    const never = crowded([deployment('filler', 5)], undefined, {}, [priorityClass('high', 1000, 'preemptionPolicy: Never\n')]);
    assert.equal(victimsOf(never).length, 0);
    assert.match(reasonOf(byName(never, 'important')), /Insufficient cpu\. preemption: not eligible due to preemptionPolicy=Never\.$/);
    const equal = crowded([deployment('filler', 5, '      priorityClassName: high\n')]);
    assert.equal(victimsOf(equal).length, 0);
    assert.match(reasonOf(byName(equal, 'important')), /5 No preemption victims found for incoming pod\.$/);
    const unknown = crowded([deployment('filler', 5)], undefined, {}, []);
    assert.equal(victimsOf(unknown).length, 0);
    assert.match(reasonOf(byName(unknown, 'important')), /Insufficient cpu.* The input does not declare PriorityClass high, so the simulator cannot tell its value and does not preempt for it: a real scheduler may evict pods of a lower priority to make room, if that class outranks them and allows preemption\.$/);
    assert.doesNotMatch(reasonOf(byName(crowded([deployment('filler', 5)], ''), 'important')), /preempt for it/);
    // Before 1.24 FailedScheduling says nothing of preemption; the summary still says a real scheduler might preempt.
    assert.match(reasonOf(byName(crowded([deployment('filler', 5)], undefined, { version: '1.23' }, []), 'important')), /Insufficient cpu\. The input does not declare PriorityClass high/);
  });

  it('writes what each version writes: the victim\'s event and condition, and no preemption part before 1.24', () => {
    const at = (version: string) => crowded([deployment('filler', 5)], undefined, { version });
    const v127 = at('1.27');
    assert.match(String(victimsOf(v127)[0].detail?.message), /^Preempted by a pod on node worker-\S+$/);
    const v126 = at('1.26');
    const [event] = victimsOf(v126);
    assert.match(String(event.detail?.message), /^Preempted by truth\/important-\S+ on node worker-\S+$/);
    assert.ok(v126.events.some((e) => e.object.name === event.object.name && e.reason === 'PreemptionByKubeScheduler'
      && /^Kube-scheduler: preempting to accommodate a higher priority pod: truth\/important-/.test(String(e.detail?.message))));
    assert.ok(!at('1.25').events.some((e) => e.type === 'PodCondition' && e.detail?.type === 'DisruptionTarget' && /Preemption/.test(e.reason)));
    const pending = (result: SimulationResult) => result.events.filter((e) => e.reason === 'FailedScheduling').map((e) => String(e.detail?.message));
    assert.ok(pending(at('1.23')).every((message) => !message.includes('preemption:')));
    assert.ok(pending(at('1.24')).some((message) => message.includes('preemption:')));
  });
});

describe('placement: the scheduler cache', () => {
  const withCpu = (text: string, cpu: string) => text.replace('image: registry.k8s.io/pause:3.9}', `image: registry.k8s.io/pause:3.9, resources: {requests: {cpu: ${cpu}}}}`);
  const twoNodes = flatCluster(['f', 'nn']);

  it('counts a pod bound by spec.nodeName to a Node object deleted meanwhile: the node registered again is not overcommitted', () => {
    const pinned = withCpu(deployment('pinned', 1, '      nodeName: f\n'), '3000m');
    const result = run([pinned, withCpu(deployment('web', 2), '2500m')], { cluster: twoNodes, targets: ['node/f'], interventions: [{ kind: 'delete-node', atMs: 60_000 }], recoverAfterMs: 3 * 60_000, durationMs: 15 * 60_000 });
    const running = result.states.filter((s) => s.object.kind === 'Pod' && s.to === null && s.status === 'Running' && s.node === 'f').map((s) => s.object.name.replace(/-.*/, ''));
    assert.deepEqual(running, ['pinned']);
  });

  it('a nominated pod bound at last no longer holds its node twice: a pod of lower priority waiting for room gets it at once', () => {
    const high = 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n';
    const result = run([high, withCpu(deployment('important', 1, '      priorityClassName: high\n'), '2000m'), withCpu(deployment('filler', 1), '3000m'), withCpu(deployment('other', 1), '1500m')],
      { cluster: twoNodes, targets: ['node/f'], durationMs: 15 * 60_000 });
    const bound = (name: string) => result.events.find((e) => e.type === 'PodScheduled' && e.object.name.startsWith(`${name}-`) && e.t > 0);
    assert.ok(result.events.some((e) => e.reason === 'Preempted'));
    assert.ok(bound('important') && bound('other'), 'both replacements run');
    assert.ok(bound('other')!.t - bound('important')!.t < 60_000, `other bound at ${bound('other')!.t}, important at ${bound('important')!.t}`);
  });

  it('a DaemonSet pod that never ran is replaced when it is deleted, and deleted with its Node object', () => {
    const high = 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n';
    const input = [high, withCpu(deployment('big', 6, '      priorityClassName: high\n'), '3500m'), withCpu(daemonSet, '1000m')];
    const pendingDaemonPod = (result: SimulationResult) => result.states.find((s) => s.object.name.startsWith('ds-') && s.from <= 0 && s.node === '<none>')!.object.name;
    const first = pendingDaemonPod(run(input, { targets: ['node/worker-c2'], durationMs: 60_000 }));
    const deleted = run(input, { targets: ['node/worker-c2'], durationMs: 3 * 60_000, interventions: [{ kind: 'force-delete', target: first, atMs: 60_000 }] });
    const created = deleted.events.filter((e) => e.type === 'PodCreated' && e.object.name.startsWith('ds-') && e.t >= 60_000);
    assert.equal(created.length, 1, created.map((e) => e.object.name).join(' '));
    // getUnscheduledPodsWithoutNode: the Pending pod of a deleted Node is deleted by the controller.
    const nodeGone = run(input, { targets: ['node/worker-c2'], durationMs: 3 * 60_000, interventions: [{ kind: 'delete-node', atMs: 60_000 }] });
    const removed = nodeGone.events.filter((e) => e.type === 'PodRemoved' && e.object.name.startsWith('ds-'));
    assert.equal(removed.length, 1);
    assert.equal(removed[0].detail?.by, 'daemonset-controller');
  });

  it('a DaemonSet pod the healthy layout left Pending is its node\'s: the controller creates no second one there', () => {
    const high = 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n';
    const agent = withCpu(daemonSet, '1000m');
    for (const interventions of [[], [{ kind: 'restart-controller-manager' as const, atMs: 60_000 }]]) {
      const result = run([high, withCpu(deployment('big', 6, '      priorityClassName: high\n'), '3500m'), agent], { targets: ['node/worker-a1'], recoverAfterMs: 3 * 60_000, durationMs: 10 * 60_000, interventions });
      const agents = new Set(result.states.filter((s) => s.object.kind === 'Pod' && s.object.name.startsWith('ds-')).map((s) => s.object.name));
      assert.equal(agents.size, 6, [...agents].join(' '));
    }
  });

  it('frees what a pod removed from a deleted Node held: the node registered again takes the Pending replacement', () => {
    const big = deployment('big', 6).replace('image: registry.k8s.io/pause:3.9}', 'image: registry.k8s.io/pause:3.9, resources: {requests: {cpu: 3000m}}}');
    const result = run([big], { targets: ['node/worker-a1'], interventions: [{ kind: 'delete-node', atMs: 60_000 }], recoverAfterMs: 3 * 60_000, durationMs: 8 * 60_000 });
    const bound = result.events.filter((e) => e.type === 'PodScheduled' && e.t > 0);
    assert.equal(bound.length, 1);
    assert.equal(bound[0].detail?.node, 'worker-a1');
    assert.ok(bound[0].t >= 3 * 60_000);
    assert.equal(result.summary.workloads[0].outcome, 'replaced');
  });
});

describe('placement: host ports (NodePorts)', () => {
  it('two pods never share a host port on one node, even packed by --placement worst; with more replicas than nodes one stays Pending', () => {
    const hostPort = (name: string, replicas: number) => deployment(name, replicas).replace('image: registry.k8s.io/pause:3.9}', 'image: registry.k8s.io/pause:3.9, ports: [{containerPort: 80, hostPort: 8080}]}');
    const worst = run([hostPort('edge', 3)], { placement: 'worst', ...SHORT });
    assert.equal(new Set(nodesOf(worst, 'edge-')).size, 3);
    const two = flatCluster(['n1', 'n2']);
    const crowded = run([deployment('web', 1), hostPort('edge', 3)], { cluster: two, ...SHORT }).summary.workloads[1];
    assert.equal(crowded.pendingBeforeFailure?.message,
      "0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.");
  });
});

describe('placement: --placement worst and spread', () => {
  it('worst packs a Deployment\'s replicas onto one node; spread puts each on its own node; the summary says which', () => {
    const worst = run([deployment('web', 4)], { placement: 'worst', ...SHORT });
    assert.equal(new Set(nodesOf(worst, 'web-')).size, 1);
    assert.equal(worst.summary.placement, 'worst');
    // With every replica on the failed node, the whole Deployment is down until the replacements run.
    const web = worst.summary.workloads[0];
    assert.equal(web.desiredReplicas, 4);
    const spread = run([deployment('web', 4)], { placement: 'spread', ...SHORT });
    assert.equal(new Set(nodesOf(spread, 'web-')).size, 4);
    assert.equal(new Set(nodesOf(spread, 'web-').map((n) => n.slice(0, -1))).size, 3);
    assert.equal(run([deployment('web', 1)], SHORT).summary.placement, 'scheduler');
  });

  it('worst still obeys the filters: required anti-affinity keeps replicas apart', () => {
    const anti = `      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname}
`;
    const worst = run([deployment('web', 3, anti)], { placement: 'worst', ...SHORT });
    assert.equal(new Set(nodesOf(worst, 'web-')).size, 3);
    // Packed as far as allowed: into as few zones as possible.
    assert.ok(new Set(nodesOf(worst, 'web-').map((n) => n.slice(0, -1))).size <= 2);
  });
});

describe('placement: what the summary says was used', () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `n${String(i).padStart(3, '0')}`);

  it('with 100 nodes or more the pods before the failure go unscored to the first feasible node, and the summary and header say so', () => {
    const scenario = scenarioOf([deployment('web', 3)], { cluster: flatCluster(names(100)), ...SHORT });
    const result = simulate(scenario);
    assert.equal(result.summary.initialPlacement, 'first-feasible');
    assert.match(renderSummary(result.summary)[0], /; placement scheduler, unscored first feasible node before the failure; /);
    const header = scenarioHeader(scenario, result.summary.failedNodes, 1, result.summary.failedNodesByFault, result.summary.initialPlacement).join('\n');
    assert.match(header, /placement scheduler \(kube-scheduler's filters; the pods running before the failure went to the first feasible node in a rotating order, unscored \(100 nodes or more\); replacements use the default scoring\)/);
    assert.doesNotMatch(header, /\(kube-scheduler's default scoring\)/);
  });

  it('a zone outage of many nodes is named by count and its first three nodes, in the header and the summary', () => {
    const oneZone = Object.fromEntries(names(100).map((n) => [n, { 'topology.kubernetes.io/zone': 'z1' }]));
    const scenario = scenarioOf([deployment('web', 3)], { cluster: flatCluster(names(100), oneZone), failure: 'zone-outage', ...SHORT });
    const result = simulate(scenario);
    assert.equal(result.summary.failedNodes.length, 100);
    const header = scenarioHeader(scenario, result.summary.failedNodes, 1, result.summary.failedNodesByFault, result.summary.initialPlacement);
    assert.match(header[0], /^Failure: zone-outage of 100 nodes: n000, n001, n002, … at 0s, never recovers; Kubernetes/);
    assert.match(renderSummary(result.summary)[0], /^SUMMARY \(failed: 100 nodes: n000, n001, n002, …; placement /);
  });

  it('with 99 nodes, or another --placement, they are scored and the summary claims the scoring', () => {
    const small = run([deployment('web', 3)], { cluster: flatCluster(names(99)), ...SHORT });
    assert.equal(small.summary.initialPlacement, 'scored');
    assert.match(renderSummary(small.summary)[0], /; placement scheduler; /);
    assert.equal(run([deployment('web', 3)], { cluster: flatCluster(names(100)), placement: 'spread', ...SHORT }).summary.initialPlacement, 'scored');
  });
});

describe('placement: spec.nodeName binds pods without the scheduler', () => {
  const MINUTE = 60_000;
  const pinned = (node: string) => deployment('pinned', 2, `      nodeName: ${node}\n`);

  it('every replacement is bound to the dead node, stays Pending, and is evicted in turn after its tolerationSeconds', () => {
    const result = run([pinned('worker-a1')], { durationMs: 16 * MINUTE });
    const created = result.events.filter((e) => e.type === 'PodCreated' && e.t > 0);
    // Two at the first eviction (~5m52s), two more 300 s later, and again.
    assert.deepEqual(created.map((e) => Math.round(e.t / MINUTE)), [6, 6, 11, 11, 16, 16]);
    assert.ok(!result.events.some((e) => e.type === 'PodScheduled' && e.t > 0), 'no scheduler binds them');
    const replacements = new Set(created.map((e) => e.object.name));
    const last = result.states.filter((s) => replacements.has(s.object.name) && s.to === null);
    assert.deepEqual([...new Set(last.map((s) => `${s.node} ${s.status}`))].sort(), ['worker-a1 Pending', 'worker-a1 Terminating']);
    const [summary] = result.summary.workloads;
    assert.deepEqual([summary.outcome, summary.cause], ['stuck', { kind: 'pinned-by-node-name', node: 'worker-a1', replacements: 6, limited: false }]);
  });

  it('replaced again as soon as it is evicted (tolerationSeconds 0): the simulator stops at 1,000 replacements and says so', () => {
    const zero = deployment('zero', 1, '      nodeName: worker-a1\n      tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 0}]\n');
    const result = run([zero], { durationMs: 60 * MINUTE });
    assert.equal(result.events.filter((e) => e.type === 'PodCreated' && e.t > 0).length, 1000);
    const limited = result.events.filter((e) => e.reason === 'ReplacementsLimited');
    assert.equal(limited.length, 1);
    assert.equal(messageOf(limited[0]), 'Deployment/zero has created 1,000 replacements: the simulator creates no more (Kubernetes would go on replacing each one evicted).');
    const [summary] = result.summary.workloads;
    assert.deepEqual(summary.cause, { kind: 'pinned-by-node-name', node: 'worker-a1', replacements: 1000, limited: true });
    assert.match(reasonOf(summary), /1,000 replacements were created there .*; the simulator stopped at this many, Kubernetes goes on\)/);
  });

  it('a cordoned node (spec.unschedulable) carries its NoSchedule taint from the start: no pod lands there, and the failure adds no taint to it', () => {
    const cluster = flatCluster(['n1', 'n2', 'n3']);
    cluster.nodes[1].unschedulable = true;
    const result = run([deployment('web', 4)], { cluster, targets: ['node/n1'], durationMs: 2 * MINUTE });
    assert.equal(result.events.filter((e) => e.type === 'TaintAdded' && e.object.name === 'n2').length, 0);
    assert.ok(!result.states.some((s) => s.object.kind === 'Pod' && s.node === 'n2'));
    const n2 = result.states.find((s) => s.object.kind === 'Node' && s.object.name === 'n2' && s.from === 0)!;
    assert.deepEqual([n2.status, n2.taints], ['Ready,SchedulingDisabled', ['node.kubernetes.io/unschedulable:NoSchedule']]);
  });

  it('the default target is the node of the first workload that has a running pod, past one whose pods are all Pending', () => {
    // Node objects given: the default cluster would be fitted to the first workload, and get a node named elsewhere.
    const result = run([pinned('elsewhere'), deployment('web', 1)], { durationMs: 2 * MINUTE, cluster: flatCluster(['worker-a1', 'worker-a2']) });
    const webNode = result.states.find((s) => s.object.name.startsWith('web-'))!.node;
    assert.deepEqual(result.summary.failedNodes, [webNode]);
  });

  it('without Node objects a run fits the default cluster to its target workload, as the findings and hovers simulate it: a nodeSelector finds its nodes', () => {
    const ssd = deployment('web', 1).replace('    spec:\n', '    spec:\n      nodeSelector: {disktype: ssd}\n');
    const result = run([ssd], { durationMs: 10 * MINUTE, targets: ['Deployment/web'] });
    assert.equal(result.summary.workloads[0].outcome, 'replaced');
    const scenario = scenarioOf([deployment('plain', 1), ssd], { durationMs: 10 * MINUTE, targets: ['Deployment/web'] });
    assert.match(scenario.cluster.source, /^the default 3 zones x 2 workers fitted to what Deployment\/web asks for: .*labelled disktype=ssd$/);
    // The only workload, whatever node the run fails: a pod pinned to big-node runs there.
    const pinned = deployment('db', 1).replace('    spec:\n', '    spec:\n      nodeSelector: {kubernetes.io/hostname: big-node}\n');
    assert.equal(run([pinned], { durationMs: 10 * MINUTE, targets: ['node/big-node'] }).summary.failedNodes[0], 'big-node');
    // Among several workloads with no target naming one, no workload's fitting changes the others' runs.
    assert.equal(scenarioOf([deployment('plain', 1), ssd], { durationMs: MINUTE }).cluster.source, 'the default 3 zones x 2 workers, 4 CPU / 14.6 GiB allocatable each');
    // Room no machine has is not invented: the pod stays Pending.
    const huge = scenarioOf([deployment('big', 1).replace('image: registry.k8s.io/pause:3.9}', 'image: x, resources: {requests: {cpu: "5000"}}}')], { durationMs: MINUTE });
    assert.ok(huge.cluster.nodes.every((n) => n.allocatable.cpuMillis < 5000 * 1000), huge.cluster.source);
  });

  it('extended resources (nvidia.com/gpu) are scheduled as NodeResourcesFit does: a GPU pod stays Pending where no other node has one free', () => {
    const gpu = deployment('vllm', 1).replace('image: registry.k8s.io/pause:3.9}', 'image: vllm, resources: {limits: {nvidia.com/gpu: 1}}}');
    const nodes = (gpus: number[]) => ({
      source: 'test',
      nodes: gpus.map((count, i) => ({
        name: `n${i}`, labels: { 'topology.kubernetes.io/zone': `z${i}` }, taints: [], unschedulable: false,
        allocatable: { cpuMillis: 8000, memoryBytes: 32 * 2 ** 30, pods: 110, ...(count > 0 ? { extended: { 'nvidia.com/gpu': count } } : {}) },
      })),
    });
    const alone = run([gpu], { durationMs: 10 * MINUTE, cluster: nodes([1, 0, 0]) });
    assert.equal(alone.summary.failedNodes[0], 'n0');
    const [vllm] = alone.summary.workloads;
    assert.equal(vllm.outcome, 'pending');
    assert.match(reasonOf(vllm), /0\/3 nodes are available: 1 node\(s\) had untolerated taint.*, 2 Insufficient nvidia\.com\/gpu\./);
    // A second node with a free GPU takes the replacement; the default cluster is given one per node.
    assert.equal(run([gpu], { durationMs: 10 * MINUTE, cluster: nodes([1, 1, 0]) }).summary.workloads[0].outcome, 'replaced');
    assert.match(scenarioOf([gpu], { durationMs: MINUTE }).cluster.source, / and 1 nvidia\.com\/gpu/);
  });

  it('a node the cluster does not have: the pods stay Pending and are never scheduled elsewhere', () => {
    const result = run([deployment('web', 1), pinned('elsewhere')], { durationMs: 2 * MINUTE });
    const pods = result.states.filter((s) => s.object.name.startsWith('pinned-'));
    assert.deepEqual([...new Set(pods.map((s) => `${s.status} ${s.node}`))], ['Pending <none>']);
    assert.match(result.summary.workloads.find((w) => w.object.name === 'pinned')!.pendingBeforeFailure!.message ?? '', /^spec\.nodeName is elsewhere, a node the cluster does not have/);
  });

  it('once the Node object is deleted, pod GC deletes each replacement bound to it (PodGC: node no longer exists)', () => {
    const result = run([pinned('worker-a1')], { durationMs: 12 * MINUTE, interventions: [{ kind: 'delete-node', atMs: 7 * MINUTE }] });
    const created = result.events.filter((e) => e.type === 'PodCreated' && e.t > 7 * MINUTE).map((e) => e.object.name);
    assert.ok(created.length > 0);
    const removals = result.events.filter((e) => e.type === 'PodRemoved' && created.includes(e.object.name));
    assert.ok(removals.length > 0 && removals.every((e) => e.detail?.by === 'pod garbage collector'), JSON.stringify(removals.map((e) => e.detail)));
  });
});
