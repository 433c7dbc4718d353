import * as assert from 'node:assert/strict';
import { compareFindings } from '../../src/analysis/finding';
import { readManifestText } from '../../src/manifest/readManifest';
import { isMirrorPod, podRequests } from '../../src/manifest/model/workloads';

/** The model and the problems reading it found (the rules are tested elsewhere). */
function analyse(text: string) {
  const read = readManifestText(text);
  return { model: read.model, objects: read.objects, findings: [...read.parsed.problems, ...read.problems].sort(compareFindings) };
}
import type { Deployment, StatefulSet } from '../../src/manifest/model/types';
import { metadataProblem } from '../../src/manifest/objects';

function pos(range: { start: { line: number; character: number }; end: { line: number; character: number } }): string {
  return `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;
}

describe('typed model', () => {
  it('takes kubeadm\'s etcd and scheduler manifests in kube-system for static pods (never bare Pods to run under a Deployment)', () => {
    const pod = (name: string, image: string, labels: string) => ['apiVersion: v1', 'kind: Pod', `metadata: {name: ${name}, namespace: kube-system${labels}}`, 'spec:', `  containers: [{name: ${name}, image: ${image}}]`].join('\n');
    const { model } = analyse([pod('etcd', 'registry.k8s.io/etcd:3.5.12-0', ''), pod('kube-scheduler', 'registry.k8s.io/kube-scheduler:v1.29.7', ''), pod('x', 'app', ', labels: {tier: control-plane}')].join('\n---\n'));
    assert.deepEqual(model.workloads.map(isMirrorPod), [true, true, true]);
    assert.equal(isMirrorPod(analyse(pod('etcd', 'registry.k8s.io/etcd:3.5.12-0', '').replace('kube-system', 'data')).model.workloads[0]), false, 'outside kube-system an etcd pod is a pod like any');
  });

  it('refuses what the API server does not serve, and leaves other groups\' kinds of the same name alone', () => {
    const { model, findings } = analyse([
      'kind: Deployment', 'metadata: {name: web}', 'spec: {replicas: 1}', '---',
      'apiVersion: extensions/v1beta1', 'kind: Deployment', 'metadata: {name: old}', 'spec: {replicas: 1}', '---',
      'apiVersion: apps/v2', 'kind: StatefulSet', 'metadata: {name: s}', '---',
      'apiVersion: serving.knative.dev/v1', 'kind: Service', 'metadata: {name: k}', '---',
      'apiVersion: v1', 'kind: Service', 'metadata: {name: plain}', '---',
      'replicaCount: 2', 'image: {tag: latest}', '---',
      'apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: loadgenerator}', '$patch: delete',
    ].join('\n'));
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.range.start.line, f.message.split(': kubectl')[0]]), [
      ['KFS092', 'error', 0, 'Deployment has no apiVersion'],
      ['KFS094', 'error', 4, 'The API server rejects this Deployment: Kubernetes does not serve extensions/v1beta1 (removed in 1.16)'],
      ['KFS094', 'error', 9, 'The API server rejects this StatefulSet: Kubernetes does not serve apps/v2'],
    ]);
    assert.deepEqual([model.workloads.length, model.services.map((svc) => svc.name)], [0, ['plain']]);
  });

  it('reads a Deployment with the API defaults applied', () => {
    const { model, findings } = analyse([
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web, namespace: shop}',
      'spec:',
      '  selector: {matchLabels: {app: web}}',
      '  template:',
      '    metadata: {labels: {app: web}}',
      '    spec:',
      '      tolerations:',
      '      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}',
      '      containers:',
      '      - name: app',
      '        image: nginx',
      '        resources: {requests: {cpu: 250m, memory: 64Mi}}',
      '        readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5}',
    ].join('\n'));
    assert.deepEqual(findings, []);
    const web = model.workloads[0] as Deployment;
    assert.equal(web.kind, 'Deployment');
    assert.equal(web.name, 'web');
    assert.equal(web.namespace, 'shop');
    assert.equal(web.replicas, 1);
    assert.deepEqual(web.strategy, { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
    assert.equal(web.template.spec.terminationGracePeriodSeconds, 30);
    assert.deepEqual(web.template.spec.tolerations, [
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', value: '', effect: 'NoExecute', tolerationSeconds: 30, at: 0 },
    ]);
    const container = web.template.spec.containers[0];
    assert.deepEqual(container.requests, { cpuMillis: 250, memoryBytes: 67108864, ephemeralStorageBytes: undefined });
    assert.deepEqual(container.readinessProbe && { ...container.readinessProbe }, {
      handler: 'httpGet', initialDelaySeconds: 0, periodSeconds: 5, timeoutSeconds: 1, successThreshold: 1,
      failureThreshold: 3, terminationGracePeriodSeconds: undefined, command: [], host: undefined,
    });
  });

  it('adds up what a pod requests as the scheduler does: init containers one at a time, native sidecars beside everything after them (PodRequests)', () => {
    const pod = (init: string) => analyse(['apiVersion: v1', 'kind: Pod', 'metadata: {name: p}', 'spec:', '  initContainers:', init,
      '  containers: [{name: app, image: app, resources: {requests: {cpu: 500m, memory: 1Gi}}}]'].join('\n'));
    const requests = (init: string) => podRequests(pod(init).model.workloads[0].template.spec);
    const GiB = 1024 ** 3;
    // A migration that needs more than the app: the pod needs that much while it runs.
    assert.deepEqual(requests('  - {name: migrate, image: m, resources: {requests: {cpu: "2", memory: 512Mi}}}'), { cpuMillis: 2000, memoryBytes: GiB });
    // A native sidecar runs beside the app (added), and beside every init container declared after it.
    assert.deepEqual(requests([
      '  - {name: proxy, image: envoy, restartPolicy: Always, resources: {requests: {cpu: 100m, memory: 128Mi}}}',
      '  - {name: migrate, image: m, resources: {requests: {cpu: 1500m, memory: 256Mi}}}',
    ].join('\n')), { cpuMillis: 1600, memoryBytes: GiB + 128 * 1024 ** 2 });
    // Extended resources: a limit stands for the request; the app containers add up, an init container's alone counts if more.
    assert.deepEqual(requests('  - {name: warm, image: w, resources: {limits: {nvidia.com/gpu: 2}}}').extended, { 'nvidia.com/gpu': 2 });
    const node = readManifestText('apiVersion: v1\nkind: Node\nmetadata: {name: g}\nstatus: {allocatable: {cpu: "8", nvidia.com/gpu: "4", kubernetes.io/batch-cpu: "1"}}\n').model.nodes[0];
    assert.deepEqual(node.allocatable.extended, { 'nvidia.com/gpu': 4 });
    // Only Always is allowed, and only on an init container (validateInitContainers).
    const { model, findings } = pod('  - {name: x, image: x, restartPolicy: OnFailure}');
    assert.equal(model.workloads[0].template.spec.initContainers[0].restartPolicy, undefined);
    assert.deepEqual(findings.map((f) => f.message), ['spec.initContainers[0].restartPolicy must be one of "Always"; it is "OnFailure".']);
  });

  it('turns wrong types and impossible values into KFS092 findings on the bad value', () => {
    const { model, findings } = analyse([
      'apiVersion: apps/v1',
      'kind: StatefulSet',
      'metadata: {name: db}',
      'spec:',
      '  replicas: "three"',
      '  serviceName: db',
      '  template:',
      '    metadata:',
      '      labels: {app: db, version: 1.0}',
      '    spec:',
      '      terminationGracePeriodSeconds: -5',
      '      tolerations:',
      '      - {key: k, effect: NoSchedule, tolerationSeconds: 10}',
      '      containers:',
      '      - name: db',
      '        resources: {limits: {memory: 1GB}}',
    ].join('\n'));
    const db = model.workloads[0] as StatefulSet;
    assert.equal(db.replicas, 1, 'a bad value reads as absent, so the default applies');
    assert.equal(db.template.spec.terminationGracePeriodSeconds, 30);
    // Past int64 the API server cannot decode an integer field.
    const big = readManifestText('apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  terminationGracePeriodSeconds: 1e20\n  containers: [{name: c, image: app}]\n');
    assert.deepEqual(big.problems.map((p) => p.message), ['spec.terminationGracePeriodSeconds is 1e20, past the largest 64-bit integer (9223372036854775807) the API server can read.']);
    // Near the bounds what was written decides (a double cannot hold 2^63 - 1): int64's largest and smallest values are accepted.
    const bounds = (seconds: string) => readManifestText(`apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  tolerations: [{operator: Exists, effect: NoExecute, tolerationSeconds: ${seconds}}]\n  containers: [{name: c, image: app}]\n`).problems.map((p) => p.message);
    assert.deepEqual(bounds('9223372036854775807'), []);
    assert.deepEqual(bounds('-9223372036854775808'), []);
    assert.deepEqual(bounds('9223372036854775808'), ['spec.tolerations[0].tolerationSeconds is 9223372036854775808, past the largest 64-bit integer (9223372036854775807) the API server can read.']);
    assert.deepEqual(bounds('-9223372036854775809'), ['spec.tolerations[0].tolerationSeconds is -9223372036854775809, below the smallest 64-bit integer (-9223372036854775808) the API server can read.']);
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, pos(f.range)]), [
      ['KFS092', 'error', '4:12-4:19'],
      ['KFS092', 'error', '8:33-8:36'],
      ['KFS092', 'error', '10:37-10:39'],
      ['KFS092', 'error', '12:56-12:58'],
      ['KFS092', 'error', '15:37-15:40'],
    ]);
    assert.equal(findings[0].message, 'spec.replicas must be a whole number; it is the string "three".');
    assert.match(findings[1].message, /spec\.template\.metadata\.labels\.version must be a string; it is 1 \(write it in quotes: "1\.0"\)/, 'what was written, not what YAML read');
    assert.equal(findings[2].message, 'spec.template.spec.terminationGracePeriodSeconds is -5; it must be ≥ 0.');
    assert.match(findings[3].message, /tolerationSeconds only applies to the NoExecute effect/);
    assert.match(findings[4].message, /resource quantity/);
    assert.deepEqual(findings[0].object, { kind: 'StatefulSet', name: 'db', namespace: 'default' });
  });

  it('refuses what the API server refuses: an empty name, an autoscaler without maxReplicas or with fewer than minReplicas, a Job whose pods restart Always', () => {
    const messages = (yaml: string) => readManifestText(yaml).problems.map((p) => p.message);
    const job = (spec: string) => `apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n    spec:\n${spec}      containers: [{name: c, image: app}]\n`;
    assert.deepEqual(messages(job('      restartPolicy: Always\n')), ['spec.template.spec.restartPolicy must be OnFailure or Never in a Job.']);
    assert.deepEqual(messages(job('')), ['spec.template.spec.restartPolicy must be OnFailure or Never in a Job (unset, it defaults to Always, which the API server refuses).']);
    assert.deepEqual(messages(job('      restartPolicy: Never\n')), []);
    const hpa = (spec: string) => `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n${spec}`;
    assert.deepEqual(messages(hpa('  minReplicas: 5\n  maxReplicas: 2\n')), ['spec.maxReplicas is 2; it must be ≥ 5.']);
    assert.deepEqual(messages(hpa('')), ['spec.maxReplicas is required.']);
    assert.deepEqual(messages(hpa('  maxReplicas: 3\n')), []);
    const budget = (value: string) => messages(`apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p}\nspec: {minAvailable: "${value}", selector: {matchLabels: {app: x}}}\n`);
    assert.deepEqual(budget('150%'), ['spec.minAvailable is 150%; a percentage here must not be greater than 100%.']);
    assert.deepEqual(budget('100%'), []);
    const probe = (field: string, value: string) => messages(`apiVersion: v1\nkind: Pod\nmetadata: {name: q}\nspec:\n  containers:\n  - name: c\n    image: x\n    ${field}: ${value}\n`);
    assert.deepEqual(probe('livenessProbe', '{exec: {}}'), ['spec.containers[0].livenessProbe.exec.command is required.']);
    assert.deepEqual(probe('startupProbe', '{tcpSocket: {port: 80}, successThreshold: 2}'), ['spec.containers[0].startupProbe.successThreshold is 2; it must be 1 for a startup probe.']);
    assert.deepEqual(probe('readinessProbe', '{tcpSocket: {port: 80}, successThreshold: 2}'), []);
    assert.deepEqual(probe('readinessProbe', '{tcpSocket: {port: 80}, periodSeconds: 2147483648}'), ['spec.containers[0].readinessProbe.periodSeconds is 2147483648; it must be ≤ 2147483647.']);
    // A count written as 0 takes its default (SetDefaults_Probe) before validation.
    assert.deepEqual(probe('livenessProbe', '{tcpSocket: {port: 80}, periodSeconds: 0, timeoutSeconds: 0, successThreshold: 0, failureThreshold: 0}'), []);
    assert.deepEqual(readManifestText('apiVersion: v1\nkind: Pod\nmetadata: {name: q}\nspec:\n  containers:\n  - {name: c, image: x, readinessProbe: {tcpSocket: {port: 80}, periodSeconds: 0}}\n').model.workloads[0].template.spec.containers[0].readinessProbe?.periodSeconds, 10);
    // A command of another type is reported once, as such.
    assert.deepEqual(probe('livenessProbe', '{exec: {command: cat /tmp/healthy}}').length, 1);
    // An init container that runs to completion has no probes; a native sidecar may.
    const init = (restartPolicy: string) => messages(`apiVersion: v1\nkind: Pod\nmetadata: {name: q}\nspec:\n  initContainers:\n  - {name: i, image: x, ${restartPolicy}readinessProbe: {tcpSocket: {port: 80}}}\n  containers: [{name: c, image: x}]\n`);
    assert.deepEqual(init(''), ['spec.initContainers[0].readinessProbe may not be set for an init container (only for a sidecar with restartPolicy: Always).']);
    assert.deepEqual(init('restartPolicy: Always, '), []);
    const exitCodes = (onExitCodes: string) => messages(job(`      restartPolicy: Never\n`).replace('spec:\n  template:', `spec:\n  podFailurePolicy:\n    rules:\n    - {action: FailJob, onExitCodes: ${onExitCodes}}\n  template:`));
    assert.deepEqual(exitCodes('{values: [143]}'), ['spec.podFailurePolicy.rules[0].onExitCodes.operator is required.']);
    assert.deepEqual(exitCodes('{operator: In, values: []}'), ['spec.podFailurePolicy.rules[0].onExitCodes.values needs at least one exit code.']);
    assert.deepEqual(exitCodes('{operator: In, values: [0, 1]}'), ['spec.podFailurePolicy.rules[0].onExitCodes.values must not hold 0 for the In operator.']);
    assert.deepEqual(exitCodes('{operator: NotIn, values: [2, 1]}'), ['spec.podFailurePolicy.rules[0].onExitCodes.values must be in increasing order, each once.']);
    assert.deepEqual(exitCodes('{operator: NotIn, values: [0], containerName: sidecar}'), ['spec.podFailurePolicy.rules[0].onExitCodes.containerName "sidecar" must name a container or init container of the pod template (c).']);
    assert.deepEqual(exitCodes('{operator: NotIn, values: [0], containerName: c}'), []);
    const [nameless] = readManifestText('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ""}\n').objects;
    assert.equal(metadataProblem(nameless)?.message, 'metadata.name is required (kubectl apply: resource name may not be empty)');
  });

  it('reads the items of a kind: List as objects with their own ranges', () => {
    const { objects } = analyse([
      'apiVersion: v1',
      'kind: List',
      'items:',
      '- apiVersion: v1',
      '  kind: Service',
      '  metadata: {name: web}',
      '- apiVersion: v1',
      '  kind: PersistentVolume',
      '  metadata: {name: pv1}',
    ].join('\n'));
    assert.deepEqual(objects.map((o) => [o.kind, o.name, o.namespace, pos(o.range)]), [
      ['Service', 'web', 'default', '3:2-5:23'],
      ['PersistentVolume', 'pv1', '', '6:2-8:23'],
    ]);
  });

  it('flattens a List in a List as kubectl does, and reports items that are not objects', () => {
    const { objects, findings } = analyse([
      'apiVersion: v1',
      'kind: List',
      'items:',
      '- apiVersion: v1',
      '  kind: List',
      '  items:',
      '  - {apiVersion: v1, kind: Service, metadata: {name: inner}}',
      '- 42',
    ].join('\n'));
    assert.deepEqual(objects.map((o) => [o.kind, o.name]), [['Service', 'inner']]);
    assert.deepEqual(findings.map((f) => [f.ruleId, f.message, pos(f.range)]), [['KFS092', 'items[1] of this List is not an object; kubectl refuses it.', '7:2-7:4']]);
    assert.deepEqual(analyse('apiVersion: v1\nkind: List\nitems: {a: 1}\n').findings.map((f) => f.message), ['items of a List must be a list of objects; kubectl refuses it, so nothing of it was analysed.']);
  });

  it('skips documents without apiVersion or kind, and reports a kind that is not a string', () => {
    const { objects, findings } = analyse('name: chart\nversion: 1\n---\napiVersion: v2\nname: x\n---\napiVersion: v1\nkind: 42\n');
    assert.deepEqual(objects, []);
    assert.deepEqual(findings.map((f) => [f.ruleId, f.message, pos(f.range)]), [['KFS092', 'kind must be a non-empty string.', '7:6-7:8']]);
  });

  it('reads kube-controller-manager flags from a static pod and kubelet settings from KubeletConfiguration', () => {
    const { model, findings } = analyse([
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'nodeStatusUpdateFrequency: 4s',
      'nodeLeaseDurationSeconds: 40',
      '---',
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {name: kube-controller-manager, namespace: kube-system}',
      'spec:',
      '  containers:',
      '  - name: kube-controller-manager',
      '    command:',
      '    - kube-controller-manager',
      '    - --node-monitor-grace-period=20s',
      '    - --node-eviction-rate',
      '    - "0.5"',
      '    - --node-monitor-period=often',
    ].join('\n'));
    assert.deepEqual(model.clusterConfig.kubelet.map((s) => [s.name, s.value]), [['nodeStatusUpdateFrequency', '4s'], ['nodeLeaseDurationSeconds', 40]]);
    assert.deepEqual(model.clusterConfig.controllerManager.map((s) => [s.name, s.value, s.range.start.line]), [
      ['node-monitor-grace-period', '20s', 13],
      ['node-eviction-rate', '0.5', 14],
    ]);
    const bad = findings.find((f) => f.ruleId === 'KFS092');
    assert.equal(bad?.message, 'kube-controller-manager flag --node-monitor-period must be a duration ≥ 0 such as "40s" or "1m30s"; it is "often".');
    assert.equal(bad && pos(bad.range), '16:6-16:33');
    assert.deepEqual(model.workloads, [], 'a control-plane static pod is cluster configuration, not a workload to fail');
    const app = analyse('apiVersion: v1\nkind: Pod\nmetadata: {name: app}\nspec: {containers: [{name: app, image: nginx}]}\n');
    assert.deepEqual(app.model.workloads.map((w) => `${w.kind}/${w.name}`), ['Pod/app']);
  });

  it('reads a control-plane container\'s flags as pflag and the kubelet read them: underscores, values after a space, booleans, sh -c quoting, $(VAR)', () => {
    const pod = (items: string[], env = '') => analyse([
      'apiVersion: v1', 'kind: Pod', 'metadata: {name: kube-controller-manager, namespace: kube-system}', 'spec:', '  containers:',
      '  - name: kube-controller-manager', '    image: registry.k8s.io/kube-controller-manager:v1.26.3', ...(env ? [`    env: ${env}`] : []), '    command:',
      ...items.map((item) => `    - ${JSON.stringify(item)}`),
    ].join('\n'));
    const flags = (items: string[], env = '') => pod(items, env).model.clusterConfig.controllerManager.map((s) => `${s.name}=${String(s.value)}`);
    const messages = (items: string[], env = '') => pod(items, env).findings.map((f) => `${f.severity} ${f.message}`);
    assert.deepEqual(flags(['kube-controller-manager', '--node_monitor_grace_period=20s', '--enable-taint-manager=False', '--node-eviction-rate', '-1']), ['node-monitor-grace-period=20s', 'enable-taint-manager=false']);
    assert.deepEqual(messages(['kube-controller-manager', '--node-eviction-rate', '-1']), ['error kube-controller-manager flag --node-eviction-rate must be a number ≥ 0; it is "-1".']);
    assert.deepEqual(messages(['kube-controller-manager', '--node-monitor-grace-period 20s']),
      ['error kube-controller-manager reads "--node-monitor-grace-period 20s" as one flag name, which it does not have, and does not start: write --node-monitor-grace-period=20s, or the flag and its value as two items.']);
    assert.deepEqual(messages(['kube-controller-manager', '--node-monitor-grace-period=20s --node-monitor-period=2s']),
      ['error kube-controller-manager flag --node-monitor-grace-period must be a duration ≥ 0 such as "40s" or "1m30s"; it is "20s --node-monitor-period=2s".']);
    assert.deepEqual(messages(['kube-controller-manager', '--node-monitor-grace-period']), ['error kube-controller-manager does not start: --node-monitor-grace-period needs a value (flag needs an argument).']);
    // A boolean flag leaves the next argument over.
    assert.deepEqual(flags(['kube-controller-manager', '--enable-taint-manager', 'false']), ['enable-taint-manager=true']);
    assert.deepEqual(messages(['kube-controller-manager', '--enable-taint-manager', 'no']),
      ['error kube-controller-manager takes no arguments and does not start: "no" is one (a boolean flag takes its value only as --enable-taint-manager=no).']);
    assert.deepEqual(messages(['kube-controller-manager', 'stray', '--node-monitor-period=5s', '--', '--node-monitor-grace-period=5s']), [
      'error kube-controller-manager takes no arguments and does not start: "stray" is one.',
      'error kube-controller-manager takes no arguments and does not start: "--node-monitor-grace-period=5s" is one (after --, which ends the flags).',
    ]);
    // The string after sh -c is split as the shell splits it.
    assert.deepEqual(flags(['sh', '-c', `exec kube-controller-manager --node-monitor-grace-period="45s" --node-eviction-rate '0.5' --node-monitor-period=2\\s`]),
      ['node-monitor-grace-period=45s', 'node-eviction-rate=0.5', 'node-monitor-period=2s']);
    assert.deepEqual(flags(['kube-controller-manager', '--node-monitor-grace-period=$(GRACE)', '--node-eviction-rate=$$(RATE)'], '[{name: GRACE, value: 20s}]'), ['node-monitor-grace-period=20s']);
    assert.deepEqual(messages(['kube-controller-manager', '--node-monitor-grace-period=$(GRACE)'], '[{name: GRACE, valueFrom: {configMapKeyRef: {name: c, key: g}}}]'),
      ['warning --node-monitor-grace-period takes its value from $(GRACE), which this tool cannot read (a ConfigMap, Secret or field, the image, the script or a command\'s output): its default is assumed.']);
    assert.deepEqual(messages(['kube-controller-manager', '--node-monitor-grace-period=$(NOPE)']), ['error kube-controller-manager flag --node-monitor-grace-period must be a duration ≥ 0 such as "40s" or "1m30s"; it is "$(NOPE)".']);
  });

  it('reads kubeadm ClusterConfiguration extraArgs as a map (v1beta3) and as a list (v1beta4)', () => {
    const v3 = analyse('apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.29.4\ncontrollerManager:\n  extraArgs:\n    node-monitor-grace-period: 30s\n');
    assert.deepEqual(v3.model.clusterConfig.controllerManager.map((s) => [s.name, s.value]), [['node-monitor-grace-period', '30s']]);
    assert.equal(v3.model.clusterConfig.kubernetesVersion?.value, 'v1.29.4');
    const v4 = analyse('apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n  - name: default-unreachable-toleration-seconds\n    value: "60"\n');
    assert.deepEqual(v4.model.clusterConfig.apiServer.map((s) => [s.name, s.value]), [['default-unreachable-toleration-seconds', '60']]);
  });

  it('reads the flags of a component a shell runs as that shell splits its script (review)', () => {
    const pod = (component: string, command: string[], env = '') => analyse([
      'apiVersion: v1', 'kind: Pod', `metadata: {name: ${component}, namespace: kube-system}`, 'spec:', '  containers:',
      `  - name: ${component}`, `    image: registry.k8s.io/${component}:v1.29.7`, ...(env ? [`    ${env}`] : []), '    command:',
      ...command.map((item) => `    - ${JSON.stringify(item)}`),
    ].join('\n'));
    const flags = (command: string[], env = '') => pod('kube-controller-manager', command, env).model.clusterConfig.controllerManager.map((s) => `${s.name}=${String(s.value)}`);
    const messages = (command: string[], env = '', component = 'kube-controller-manager') => pod(component, command, env).findings.filter((f) => f.ruleId === 'KFS092').map((f) => `${f.severity} ${f.message}`);
    for (const shell of [['/bin/sh', '-ec'], ['bash', '-lc'], ['/usr/bin/env', 'sh', '-c']]) {
      assert.deepEqual(flags([...shell, 'exec kube-controller-manager --node-monitor-grace-period=45s']), ['node-monitor-grace-period=45s'], shell.join(' '));
    }
    // Only the command that runs the component; comments, continuations and what follows the script are not its flags.
    assert.deepEqual(flags(['sh', '-c', 'mkdir -p /x && echo --node-monitor-period=1m; exec kube-controller-manager \\\n  --node-monitor-grace-period="${GRACE}" \\\n  --node-eviction-rate=$RATE # --node-monitor-period=2s', '--node-startup-grace-period=1m'],
      'env: [{name: GRACE, value: 45s}, {name: RATE, value: "0.2"}]'), ['node-monitor-grace-period=45s', 'node-eviction-rate=0.2']);
    assert.deepEqual(messages(['sh', '-c', 'exec kube-controller-manager --node-monitor-grace-period="45s']), ['error the shell does not run this script: a quote is not closed']);
    // Redirections are no arguments; an unquoted value splits into words, an empty one is none; "$@" and ${X:-default}; the last command that runs it.
    for (const [script, read] of [
      ['exec /usr/local/bin/kube-controller-manager --node-monitor-grace-period=20s 1>>/var/log/kcm.log 2>&1', 'node-monitor-grace-period=20s'],
      ['mkfifo /p; (tee -a /l < /p & ) ; exec kube-controller-manager --node-monitor-grace-period=20s > /p 2>&1 </dev/null', 'node-monitor-grace-period=20s'],
      ['exec kube-controller-manager $EMPTY $FLAGS', 'node-monitor-grace-period=20s node-monitor-period=2s'],
      ['exec kube-controller-manager --node-monitor-grace-period=${GRACE:-30s}', 'node-monitor-grace-period=30s'],
      ['kube-controller-manager --version; [ -x /bin/kube-controller-manager ] || exit 1; exec kube-controller-manager --node-monitor-grace-period=20s', 'node-monitor-grace-period=20s'],
    ]) {
      assert.deepEqual([flags(['sh', '-c', script], 'env: [{name: EMPTY, value: ""}, {name: FLAGS, value: "--node-monitor-grace-period=20s --node-monitor-period=2s"}]').join(' '), messages(['sh', '-c', script])], [read, []], script);
    }
    assert.deepEqual(flags(['sh', '-c', '--', 'exec kube-controller-manager "$@"', 'sh', '--node-monitor-grace-period=20s']), ['node-monitor-grace-period=20s']);
    assert.deepEqual(messages(['sh', '-c', 'GRACE=20s; exec kube-controller-manager --node-monitor-grace-period=$GRACE --node-monitor-period=$(cat /p)']).map((m) => m.split(',')[0]),
      ['warning --node-monitor-grace-period takes its value from $GRACE', 'warning --node-monitor-period takes its value from $(...)']);
    // Values the tool cannot read: every one is said, only for flags it reads, and an earlier value of the flag is not in effect.
    const secret = (name: string) => `{name: ${name}, valueFrom: {secretKeyRef: {name: s, key: k}}}`;
    assert.deepEqual(messages(['sh', '-c', 'exec kube-controller-manager --node-monitor-grace-period=$(A) --node-monitor-period=$(B) --bind-address=$(C)'], `env: [${secret('A')}, ${secret('B')}, ${secret('C')}]`).map((m) => m.split(',')[0]),
      ['warning --node-monitor-grace-period takes its value from $(A)', 'warning --node-monitor-period takes its value from $(B)']);
    const unknown = pod('kube-controller-manager', ['kube-controller-manager', '--node-monitor-grace-period=20s', '--node-monitor-grace-period=$(G)', '--node-monitor-period=$(P)'], 'envFrom: [{configMapRef: {name: c}}]');
    assert.deepEqual(unknown.model.clusterConfig.controllerManager, []);
    assert.deepEqual(unknown.findings.map((f) => f.message.split(';')[0].split(':')[0]), [
      'kube-controller-manager flag --node-monitor-grace-period is given again at line 12',
      '--node-monitor-grace-period takes its value from $(G), which this tool cannot read (a ConfigMap, Secret or field, the image, the script or a command\'s output)',
      '--node-monitor-period takes its value from $(P), which this tool cannot read (a ConfigMap, Secret or field, the image, the script or a command\'s output)',
    ]);
    // The admission plugins are lists: given again, their values add up.
    const apiserver = pod('kube-apiserver', ['kube-apiserver', '--disable-admission-plugins=DefaultTolerationSeconds', '--disable-admission-plugins=PodSecurity']);
    assert.deepEqual(apiserver.model.clusterConfig.apiServer.map((s) => `${s.name}=${String(s.value)}`), ['disable-admission-plugins=DefaultTolerationSeconds,PodSecurity', 'default-not-ready-toleration-seconds=0', 'default-unreachable-toleration-seconds=0']);
    assert.deepEqual(messages(['kube-apiserver', '--disable-admission-plugins'], '', 'kube-apiserver'), ['error kube-apiserver does not start: --disable-admission-plugins needs a value (flag needs an argument).']);
    // A part of a list this tool cannot read leaves the parts it can.
    const partly = pod('kube-apiserver', ['kube-apiserver', '--disable-admission-plugins=$(EXTRA)', '--disable-admission-plugins=DefaultTolerationSeconds'], `env: [${secret('EXTRA')}]`);
    assert.deepEqual(partly.model.clusterConfig.apiServer.map((s) => `${s.name}=${String(s.value)}`), ['disable-admission-plugins=DefaultTolerationSeconds', 'default-not-ready-toleration-seconds=0', 'default-unreachable-toleration-seconds=0']);
    const kubeadm = analyse('apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n    disable-admission-plugins: NodeRestriction\n');
    assert.deepEqual(kubeadm.findings.map((f) => f.message), ['kube-apiserver does not start: NodeRestriction is in both the --enable-admission-plugins kubeadm writes and --disable-admission-plugins.']);
  });

  it('refuses what the components refuse: a kubeadm v1beta4 value that is no string, a shutdown period under a second, an admission plugin both on and off; reads a kubeadm release label', () => {
    const messages = (text: string) => analyse(text).findings.map((f) => `${f.severity} ${f.message}`);
    assert.deepEqual(messages('apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n  - {name: default-unreachable-toleration-seconds, value: 90}\n'),
      ['error apiServer.extraArgs[0].value must be a string; it is 90 (write it in quotes: "90").']);
    assert.equal(analyse('apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: stable-1.30\n').model.clusterConfig.kubernetesVersion?.value, '1.30');
    assert.deepEqual(messages('apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nshutdownGracePeriod: 500ms\nshutdownGracePeriodCriticalPods: 200ms\n'), [
      'error shutdownGracePeriod 500ms must be zero or at least 1s: the kubelet does not start with this configuration.',
      'error shutdownGracePeriodCriticalPods 200ms must be zero or at least 1s: the kubelet does not start with this configuration.',
    ]);
    const apiserver = (...flags: string[]) => ['apiVersion: v1', 'kind: Pod', 'metadata: {name: kube-apiserver, namespace: kube-system}', 'spec:', '  containers:', '  - name: kube-apiserver', '    command:', '    - kube-apiserver', ...flags.map((f) => `    - ${f}`)].join('\n');
    assert.deepEqual(messages(apiserver('--enable-admission-plugins=NodeRestriction,DefaultTolerationSeconds', '--disable-admission-plugins=DefaultTolerationSeconds')),
      ['error kube-apiserver does not start: DefaultTolerationSeconds is in both --enable-admission-plugins and --disable-admission-plugins.']);
    const off = analyse(apiserver('--default-unreachable-toleration-seconds=60', '--disable-admission-plugins=DefaultTolerationSeconds'));
    assert.deepEqual(off.findings.map((f) => `${f.severity} ${f.message}`), ['warning --default-unreachable-toleration-seconds=60 has no effect: --disable-admission-plugins turns off DefaultTolerationSeconds, the admission plugin that gives pods this toleration, so pods without their own get none.']);
    assert.deepEqual(off.model.clusterConfig.apiServer.map((s) => `${s.name}=${String(s.value)}`), ['disable-admission-plugins=DefaultTolerationSeconds', 'default-not-ready-toleration-seconds=0', 'default-unreachable-toleration-seconds=0']);
  });

  it('reads PriorityClasses as the API server validates them: a value, no reserved system- name, the built-in classes unchanged, one global default', () => {
    const pc = (name: string, body: string) => `apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: ${name}}\n${body}`;
    const { model, findings } = analyse([
      pc('high', 'value: 1000\npreemptionPolicy: Never\n'), pc('novalue', 'description: x\n'), pc('system-mine', 'value: 2000000500\n'),
      pc('system-cluster-critical', 'value: 5\n'), pc('system-node-critical', 'value: 2000001000\n'), pc('d1', 'value: 10\nglobalDefault: true\n'), pc('d2', 'value: 20\nglobalDefault: true\n'),
      pc('huge', 'value: 1000000001\n'), pc('system-node-critical', 'value: 2000001000\nglobalDefault: true\n'),
    ].join('---\n'));
    assert.deepEqual(model.priorityClasses.map((c) => [c.name, c.value, c.globalDefault, c.preemptionPolicy]), [
      ['high', 1000, false, 'Never'], ['system-node-critical', 2000001000, false, 'PreemptLowerPriority'], ['d1', 10, true, 'PreemptLowerPriority'],
    ]);
    assert.deepEqual(findings.map((f) => f.message), [
      'The API server refuses a PriorityClass without value (a whole number up to 1000000000).',
      'The API server refuses this PriorityClass: names beginning with system- are reserved for the built-in system-cluster-critical and system-node-critical.',
      'system-cluster-critical is built into every cluster with value 2000000000, which cannot be changed: this object is refused, and pods naming the class get 2000000000.',
      'The API server refuses a second global default PriorityClass: d1 already is one.',
      'value is 1000000001; it must be ≤ 1000000000.',
      'system-node-critical is built into every cluster with globalDefault false, which cannot be changed: this object is refused, and pods naming the class get 2000001000.',
    ]);
  });

  it('reads Nodes, PersistentVolumes with node affinity, StorageClasses, Services and PDBs', () => {
    const { model, findings } = analyse([
      'apiVersion: v1', 'kind: Node', 'metadata: {name: n1, labels: {topology.kubernetes.io/zone: a}}',
      'spec: {taints: [{key: dedicated, value: db, effect: NoSchedule}]}',
      'status: {allocatable: {cpu: "3920m", memory: 15Gi, pods: "110"}}',
      '---',
      'apiVersion: v1', 'kind: PersistentVolume', 'metadata: {name: local-1}',
      'spec:', '  local: {path: /mnt/disk}', '  nodeAffinity:', '    required:', '      nodeSelectorTerms:',
      '      - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [n1]}]',
      '---',
      'apiVersion: storage.k8s.io/v1', 'kind: StorageClass', 'metadata: {name: local}',
      'provisioner: kubernetes.io/no-provisioner', 'volumeBindingMode: WaitForFirstConsumer',
      '---',
      'apiVersion: v1', 'kind: Service', 'metadata: {name: db}', 'spec: {clusterIP: None, selector: {app: db}, ports: [{port: 5432}]}',
      '---',
      'apiVersion: policy/v1', 'kind: PodDisruptionBudget', 'metadata: {name: db}', 'spec: {maxUnavailable: 1, selector: {matchLabels: {app: db}}}',
    ].join('\n'));
    assert.deepEqual(findings, []);
    assert.deepEqual(model.nodes[0].allocatable, { cpuMillis: 3920, memoryBytes: 16106127360, pods: 110 });
    assert.deepEqual(model.nodes[0].taints, [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }]);
    assert.equal(model.persistentVolumes[0].local, true);
    assert.deepEqual(model.persistentVolumes[0].nodeAffinity[0].matchExpressions, [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }]);
    assert.equal(model.storageClasses[0].volumeBindingMode, 'WaitForFirstConsumer');
    assert.equal(model.services[0].headless, true);
    assert.equal(model.podDisruptionBudgets[0].maxUnavailable, 1);
  });
});
