/** Hovers and lenses, as the editor gets them from the workspace (no VS Code needed). */
import * as assert from 'node:assert/strict';
import { code, md } from '../../src/analysis/markdown';
import { Workspace } from '../../src/workspace/workspace';
import { worstLens, worstOutageText } from '../../src/analysis/lenses';

function at(text: string, marker: string, others: string[] = []) {
  const workspace = new Workspace();
  others.forEach((o, i) => workspace.setDocument(`other${i}.yaml`, o));
  workspace.setDocument('main.yaml', text.replace('|', ''));
  const offset = text.indexOf('|');
  const before = text.slice(0, offset).split('\n');
  const position = { line: before.length - 1, character: before[before.length - 1].length };
  assert.ok(text.includes(marker));
  return { workspace, hover: workspace.hover('main.yaml', position) };
}

const deployment = (replicas: string, pod = '', name = 'web') => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${JSON.stringify(name)}, namespace: shop}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
${pod}      containers:
      - name: web
        image: nginx
        command: [sh, -ec, "cd /srv; nginx -g 'daemon off;'"]
        readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5, failureThreshold: 2}
        resources: {requests: {cpu: 100m}}
`;

// The readiness probe (period 5 s) makes the replacement Ready 5–10 s after its creation.
const NUMBERS = /Down for about (5m5[0-9]|6m1?[0-9])s: the pod is deleted 5m after the NoExecute taint\\, and its replacement is Ready \\~([5-9]|10)s later/;

describe('hovers', () => {
  it('replicas: what it does, the simulated numbers, the timing with its sources, a link to simulate', () => {
    const { hover } = at(deployment('|1'), '|1');
    assert.ok(hover);
    assert.match(hover.markdown, /^\*\*replicas: 1\*\*: how many pods Deployment\\\/web runs/);
    assert.match(hover.markdown, NUMBERS);
    assert.match(hover.markdown, /`node-monitor-grace-period=50s` \(Kubernetes 1\\\.36 default\), `default-unreachable-toleration-seconds=300` \(Kubernetes 1\\\.36 default\)/);
    // The link simulates this workload: the command's argument is [{"target":"Deployment/web"}], percent-encoded.
    const link = /\[Simulate node failure\]\(command:kubeFailureSim\.simulate\?([^ )]+) "/.exec(hover.markdown);
    assert.deepEqual(JSON.parse(decodeURIComponent(link![1])), [{ target: 'Deployment/web' }]);
    assert.deepEqual(hover.range, { start: { line: 4, character: 12 }, end: { line: 4, character: 13 } }, 'the value hovered');
    // Where another namespace of the file has a Deployment/web, the link names this one by its namespace.
    const { hover: shared, workspace } = at(`${deployment('|1')}---\n${deployment('1').replace('namespace: shop', 'namespace: blue')}`, '|1');
    // The CodeLens (and the status bar and quick fixes, which take its target) name it the same way.
    assert.deepEqual(workspace.lenses('main.yaml').map((l) => l.target), ['Deployment/shop/web', 'Deployment/blue/web']);
    assert.deepEqual(at(deployment('|1'), '|1').workspace.lenses('main.yaml').map((l) => l.target), ['Deployment/web']);
    const sharedLink = /\[Simulate node failure\]\(command:kubeFailureSim\.simulate\?([^ )]+) "/.exec(shared!.markdown);
    assert.deepEqual(JSON.parse(decodeURIComponent(sharedLink![1])), [{ target: 'Deployment/shop/web' }]);
  });

  it('tolerationSeconds: the eviction clock with the simulated taint and deletion times', () => {
    const pod = '      tolerations:\n      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: |60}\n';
    const { hover } = at(deployment('1', pod), '|60');
    assert.match(hover!.markdown, /^\*\*node\\\.kubernetes\\\.io\\\/unreachable:NoExecute, tolerationSeconds 60\*\*: when a node stops answering/);
    assert.match(hover!.markdown, /Simulated: the NoExecute taint at (4[0-9]|5[0-9]|1m[0-9])s, the pod deleted at .* \(1m later\)/);
  });

  it('a not-ready toleration is explained with its own taint, a kubelet reporting NotReady, and KFS007 measures that', () => {
    const pod = '      tolerations:\n      - {key: node.kubernetes.io/not-r|eady, operator: Exists, effect: NoExecute}\n';
    const { hover, workspace } = at(deployment('1', pod), 'not-r|eady');
    assert.match(hover!.markdown, /^\*\*node\\\.kubernetes\\\.io\\\/not\\-ready:NoExecute, no tolerationSeconds\*\*: when a kubelet reports NotReady .*the unreachable taint instead, which this toleration does not cover\. Simulated \(its kubelet reports NotReady\): the taint at \d+s, the pod never deleted\./);
    const kfs007 = workspace.analyse('main.yaml').findings.find((f) => f.ruleId === 'KFS007')!;
    assert.match(kfs007.message, / if its kubelet reports NotReady: this toleration has no tolerationSeconds, so the pod tolerates the node\.kubernetes\.io\/not-ready NoExecute taint forever: while its kubelet reports NotReady .* it is never evicted/);
    assert.doesNotMatch(kfs007.message, /dead node/);
    const [fix] = workspace.fixes('main.yaml').filter((f) => f.finding.ruleId === 'KFS007').map((f) => f.fix);
    // Its containers keep serving there, so the eviction it adds lengthens the outage: offered, not preferred.
    assert.match(fix.title, /^Add tolerationSeconds: 300 \(outage if its kubelet reports NotReady: 0s → [1-9]\d*s\)$/);
    assert.ok(!fix.preferred);
  });

  it('a DaemonSet\'s toleration: its pods tolerate a dead node forever, whatever it writes', () => {
    const ds = 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: shop}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      tolerations: [{key: g|pu, operator: Exists, effect: NoSchedule}]\n      containers: [{name: c, image: agent}]\n';
    const { hover } = at(ds, 'g|pu');
    assert.match(hover!.markdown, /^\*\*gpu:NoSchedule\*\*: the DaemonSet controller adds .* never evicted: it waits for the node/);
    assert.doesNotMatch(hover!.markdown, /DefaultTolerationSeconds/);
    // Written with seconds (operator Equal: the controller adds its own after it), the written one is read first.
    const equal = ds.replace('{key: g|pu, operator: Exists, effect: NoSchedule}', '{key: node.kubernetes.io/unreach|able, operator: Equal, effect: NoExecute, tolerationSeconds: 60}');
    assert.match(at(equal, 'unreach|able').hover!.markdown, /so a written one with tolerationSeconds 60 decides\. Simulated: its pod on a failed node is evicted at 1m5[0-9]s, 60s after the NoExecute taint/);
  });

  it('a DaemonSet\'s outage keeps the capital of the kind its reason opens with', () => {
    const ds = 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: shop}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      vol|umes: [{name: v, emptyDir: {}}]\n      containers: [{name: c, image: agent}]\n';
    assert.match(at(ds, 'vol|umes').hover!.markdown, /one replica short for about \d+s: DaemonSet pods belong to their node\\: agent/);
  });

  it('a toleration that does not cover a dead node\'s taint (another key, NoSchedule) says so, and what decides instead', () => {
    const pod = '      tolerations:\n      - {key: dedi|cated, operator: Equal, value: gpu, effect: NoSchedule}\n';
    const { hover } = at(deployment('2', pod), 'dedi|cated');
    assert.match(hover!.markdown, /^\*\*dedicated:NoSchedule\*\*: does not match `node\.kubernetes\.io\/unreachable:NoExecute`, the taint a node that stops answering gets, so it plays no part in when the pods of a failed node are deleted: the 300s DefaultTolerationSeconds gives pods that write none \(.*\) does\. Simulated: the NoExecute taint at/);
    assert.doesNotMatch(hover!.markdown, /no tolerationSeconds/);
    // Beside one that covers it: that one decides.
    const both = pod + '      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoSchedule}\n      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}\n';
    assert.match(at(deployment('2', both.replace('dedi|cated', 'dedicated').replace('unreachable, operator: Exists, effect: NoSchedule', 'unreach|able, operator: Exists, effect: NoSchedule')), 'unreach|able').hover!.markdown,
      /^\*\*node\\\.kubernetes\\\.io\\\/unreachable:NoSchedule\*\*: does not match .*: its toleration of it with tolerationSeconds 30 does\./);
  });

  it('a toleration after one the API server rejects: the hover is about the toleration under the pointer', () => {
    const pod = '      tolerations:\n      - {key: f|oo, operator: Exists, effect: NoExecut}\n      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 20}\n';
    assert.match(at(deployment('1', pod), 'f|oo').hover!.markdown, /^\*\*tolerations\*\*: /);
    const second = pod.replace('f|oo', 'foo').replace('tolerationSeconds: 20', 'tolerationSeconds: |20');
    assert.match(at(deployment('1', second), '|20').hover!.markdown, /^\*\*node\\\.kubernetes\\\.io\\\/unreachable:NoExecute, tolerationSeconds 20\*\*/);
  });

  it('probes, command, resources, node selection and grace period each explain themselves', () => {
    const cases: [string, RegExp][] = [
      ['        |readinessProbe', /^\*\*readinessProbe\*\* of web: after 2 failed checks 5s apart the pod leaves the Service's endpoints \(6–11s after a hang\)/],
      ['        |command', /Here a shell is PID 1: it does not forward SIGTERM, so every stop waits 30s/],
      ['        |resources', /this container makes the pod at best Burstable/],
    ];
    for (const [marker, expected] of cases) {
      const text = deployment('1').replace(marker.replace('|', ''), marker);
      assert.match(at(text, marker).hover!.markdown, expected, marker);
    }
    // One program alone: the shell runs it in its own place, as KFS030 judges it.
    const single = deployment('1').replace('"cd /srv; nginx', '"nginx').replace('        command', '        |command');
    assert.match(at(single, '|command').hover!.markdown, /^\*\*command\*\* of web: the first program runs as PID 1 and receives SIGTERM on deletion\. It has 30s to exit before SIGKILL\./);
    // sleep as PID 1 (run by the shell in its place) has no SIGTERM handler, and PID 1 ignores what it does not handle.
    const sleeper = deployment('1').replace(`"cd /srv; nginx -g 'daemon off;'"`, '"sleep 3600"').replace('        command', '        |command');
    assert.match(at(sleeper, '|command').hover!.markdown, /Here PID 1 is a program with no SIGTERM handler, which PID 1 ignores: every stop waits 30s and ends in SIGKILL\./);
    // A liveness probe detects a hang as a readiness probe does: (F−1)·p + timeout to F·p + timeout, 21–31 s by default.
    const live = deployment('1').replace('        readinessProbe:', '        |livenessProbe: {httpGet: {path: /, port: 80}}\n        readinessProbe:');
    assert.match(at(live, '|livenessProbe').hover!.markdown, /a hang is detected 21–31s after it starts/);
    const pinned = deployment('1', '      |nodeSelector: {kubernetes.io/hostname: worker-b1}\n');
    assert.match(at(pinned, '|nodeSelector').hover!.markdown, /^\*\*Node selection\*\*: 1 of the 6 nodes of the cluster .* match: worker\\-b1\. A replacement .*: with this one node, it stays Pending until the node returns\.\n/);
    // Every node matching: the five first named, the rest counted, and no word of a single node.
    const any = at(deployment('1', '      |nodeSelector: {kubernetes.io/os: linux}\n'), '|nodeSelector').hover!.markdown;
    assert.match(any, /^\*\*Node selection\*\*: 6 of the 6 nodes .* match: worker\\-a1\\, .*worker\\-c1 and 1 more\. A replacement can only go to a matching node that is Ready and untainted\.\n/);
  });

  it('grace period, pod management, strategy, volumes, claims and affinity each explain themselves with the simulated outcome', () => {
    const sts = 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  replicas: 1\n  podManagementPolicy: Parallel\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec:\n      terminationGracePeriodSeconds: 60\n      volumes: [{name: tmp, emptyDir: {}}]\n      affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: db}}}]}}\n      containers: [{name: db, image: postgres}]\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n';
    const stuck = /\*\*If its node fails\*\* \(power\-off of worker\\-a1, never back; Kubernetes 1\.36\): Down until the node returns or someone acts: db\\-0 stays Terminating/;
    const cases: [string, RegExp][] = [
      ['|terminationGracePeriodSeconds', /^\*\*terminationGracePeriodSeconds: 60\*\*: on deletion the kubelet sends SIGTERM, waits up to this long, then SIGKILL\. A pod on a failed node is deleted with this grace period but stays Terminating until the node returns or someone force-deletes it/],
      ['|podManagementPolicy', /^\*\*podManagementPolicy: Parallel\*\*: pods are created and deleted in parallel; a pod on a failed node still keeps its name, so it is not recreated while its old object exists\./],
      ['|volumes:', /^\*\*volumes\*\*: emptyDir data is lost when the pod moves; hostPath and local volumes stay on the node; a ReadWriteOnce claim stays attached to a failed node until its old pod object is gone, then 6 more minutes\./],
      ['|volumeClaimTemplates', /^\*\*volumeClaimTemplates\*\*: each pod gets its own claim, kept when the pod is deleted\. A ReadWriteOnce volume stays attached to a failed node until the old pod object is gone, then 6 more minutes/],
      ['|affinity:', /^\*\*Node selection\*\*: 6 of the 6 nodes of the cluster .* match: worker\\-a1\\, worker\\-a2/],
    ];
    for (const [marker, expected] of cases) {
      const markdown = at(sts.replace(marker.replace('|', ''), marker), marker).hover!.markdown;
      assert.match(markdown, expected, marker);
      assert.match(markdown, stuck, marker);
    }
    const recreate = deployment('2').replace('  selector:', '  |strategy: {type: Recreate}\n  selector:');
    const strategy = at(recreate, '|strategy').hover!.markdown;
    assert.match(strategy, /^\*\*strategy: Recreate\*\*: how a rollout replaces pods\. It plays no part when a node fails: replacements come from the ReplicaSet controller as soon as a pod is deleted\./);
    assert.match(strategy, /No outage\\, one replica short for about (5m5[0-9]|6m[0-9]+)s: the pod is deleted 5m after the NoExecute taint/);
  });

  it('priorityClassName: the priority from the workspace\'s PriorityClass or a built-in class, and what preemption does with it', () => {
    const classes = 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: patient}\nvalue: 500\npreemptionPolicy: Never\n---\n';
    const hover = (name: string) => at(classes + deployment('1', `      |priorityClassName: ${name}\n`), '|priorityClassName').hover!.markdown;
    assert.match(hover('high'), /^\*\*priorityClassName: high\*\*: priority 1000 \(PriorityClass high\)\. When its node fails, a replacement that fits nowhere makes room by deleting pods of a lower priority \(preemption\)/);
    assert.match(hover('patient'), /^\*\*priorityClassName: patient\*\*: priority 500 \(PriorityClass patient\)\. When its node fails, with preemptionPolicy Never a replacement that fits nowhere waits/);
    assert.match(hover('system-cluster-critical'), /priority 2000000000 \(PriorityClass system\\-cluster\\-critical, built in\)/);
    assert.match(hover('elsewhere'), /^\*\*priorityClassName: elsewhere\*\*: the workspace declares no PriorityClass elsewhere, so its value is unknown here/);
  });

  it('a KubeletConfiguration field and an API server flag: the value in effect, where it came from, the version default', () => {
    const kubelet = at('apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n|nodeStatusUpdateFrequency: 4s\n', '|node').hover!.markdown;
    assert.match(kubelet, /^\*\*nodeStatusUpdateFrequency\*\* \(kubelet\): How often the kubelet computes node status/);
    assert.match(kubelet, /In effect for this workspace: `nodeStatusUpdateFrequency=4s` \(main\\\.yaml\\:3\); default of Kubernetes 1\.36: 10s\./);
    const apiserver = at('apiVersion: v1\nkind: Pod\nmetadata: {name: kube-apiserver, namespace: kube-system}\nspec:\n  containers:\n  - name: kube-apiserver\n    command:\n    - kube-apiserver\n    - |--default-unreachable-toleration-seconds=60\n', '|--default').hover!.markdown;
    assert.match(apiserver, /^\*\*default\\-unreachable\\-toleration\\-seconds\*\* \(apiserver\): tolerationSeconds that DefaultTolerationSeconds adds for the unreachable NoExecute taint/);
    assert.match(apiserver, /In effect for this workspace: `default-unreachable-toleration-seconds=60` \(main\\\.yaml\\:9\); default of Kubernetes 1\.36: 300\./);
  });

  it('kubeadm extraArgs (a mapping, or name/value items) explain their flag; a flag-like string elsewhere is not a setting', () => {
    const grace = /^\*\*node\\-monitor\\-grace\\-period\*\* \(kcm\): /;
    const v1beta3 = 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\ncontrollerManager:\n  extraArgs:\n    node-monitor-grace-period: |20s\n';
    assert.match(at(v1beta3, '|20s').hover!.markdown, grace);
    assert.match(at(v1beta3.replace('|20s', '20s').replace('    node', '    |node'), '|node').hover!.markdown, grace);
    const v1beta4 = 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\ncontrollerManager:\n  extraArgs:\n  - {name: node-monitor-grace-period, value: |20s}\n';
    assert.match(at(v1beta4, '|20s').hover!.markdown, grace);
    assert.equal(at('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: notes}\ndata: {example: "|--node-monitor-grace-period=5s"}\n', '|--node').hover, undefined);
  });

  it('a controller-manager flag: its effect, the value in effect and where it came from, the version default', () => {
    const kcm = 'apiVersion: v1\nkind: Pod\nmetadata: {name: kube-controller-manager, namespace: kube-system}\nspec:\n  containers:\n  - name: kube-controller-manager\n    command:\n    - kube-controller-manager\n    - |--node-monitor-grace-period=20s\n';
    const { hover } = at(kcm, '|--node');
    assert.match(hover!.markdown, /^\*\*node\\-monitor\\-grace\\-period\*\* \(kcm\): Time without a heartbeat/);
    assert.match(hover!.markdown, /In effect for this workspace: `node-monitor-grace-period=20s` \(main\\\.yaml\\:9\); default of Kubernetes 1\.36: 50s\./);
    assert.match(hover!.markdown, /A node is marked NotReady between 10s and 30s after it stops: the grace period counts from the last heartbeat the controller saw \(its lease renewal every 10s\), and is checked every 5s/);
  });

  it('a PodDisruptionBudget field: what it selects, what it allows, and that node failures ignore it', () => {
    const pdb = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: shop}\nspec:\n  |minAvailable: 2\n  selector: {matchLabels: {app: web}}\n';
    const { hover } = at(pdb, '|minAvailable', [deployment('3')]);
    assert.match(hover!.markdown, /selects Deployment\\\/web \(3 pods\): 1 may be evicted at a time\./);
    assert.match(hover!.markdown, /When a node fails, the taint eviction controller deletes pods without asking it/);
  });

  it('keeps markup in manifest strings literal: no link, no HTML, no command can be injected', () => {
    const name = '[x](command:workbench.action.files.delete)<img src=x onerror=alert(1)>`*';
    const { hover } = at(deployment('|1', '', name), '|1');
    const markdown = hover!.markdown;
    assert.ok(!markdown.includes('](command:workbench'), markdown);
    assert.ok(!markdown.includes('<img'), markdown);
    assert.match(markdown, /Deployment\\\/\\\[x\\\]\\\(command\\:workbench\\\.action\\\.files\\\.delete\\\)&lt;img src\\=x onerror\\=alert\\\(1\\\)&gt;|Deployment\\\/\\\[x\\\]/);
    assert.equal((markdown.match(/\]\(command:/g) ?? []).length, 1, 'only our own simulate link');
    // The name in the link's argument cannot end the link early: it ends at the only ` "` and `)`.
    const link = /\(command:kubeFailureSim\.simulate\?([^ ]+) "Simulate a node failure for this workload"\)$/.exec(markdown);
    assert.ok(link && !/[()"'\s]/.test(link[1]), markdown);
    assert.deepEqual(JSON.parse(decodeURIComponent(link[1])), [{ target: `Deployment/${name}` }]);
  });

  it('a carriage return in a manifest string cannot start a paragraph or a heading of the hover', () => {
    assert.equal(md('a**x**\rline2\r\r# head'), 'a\\*\\*x\\*\\* line2  \\# head');
    assert.equal(code('a\r\nb'), '`a b`');
  });

  it('no hover outside the fields it knows', () => {
    assert.equal(at(deployment('1').replace('apiVersion', '|apiVersion'), '|apiVersion').hover, undefined);
  });
});

describe('lenses (KFS012)', () => {
  const lenses = (text: string) => {
    const workspace = new Workspace();
    workspace.setDocument('main.yaml', text);
    return workspace.lenses('main.yaml');
  };

  it('one per workload, on its first line: down, stuck, or no outage with its spread', () => {
    const text = `${deployment('1')}---\n${deployment('3').replace('name: "web"', 'name: "web3"')}---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  replicas: 1\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: db, image: postgres}]}\n`;
    const result = lenses(text);
    assert.deepEqual(result.map((l) => l.range.start.line), [0, 16, 32]);
    assert.match(result[0].title, /^If its node fails: down ~(5m5[0-9]|6m1?[0-9])s \(back in 2m: down ~(1m[0-9]+|2m[0-9]*)s\)$/);
    assert.equal(result[1].title, 'If its node fails: no outage (3 replicas on 3 nodes)');
    assert.match(result[2].title, /^If its node fails: stuck until someone acts \(back in 2m: down ~2m[0-9]+s\)$/);
    assert.equal(result[2].outageMs, Infinity);
    // The status bar shows the worst of them.
    assert.equal(worstLens(result), result[2]);
    assert.equal(worstOutageText(worstLens(result)!), 'Node failure: stuck until someone acts');
    assert.match(worstOutageText(worstLens(result.slice(0, 2))!), /^Node failure: down ~(5m5[0-9]|6m1?[0-9])s$/);
    assert.equal(worstOutageText(result[1]), 'Node failure: no outage');
    assert.equal(worstLens([]), undefined);
    // A toleration longer than the 2 hours simulated: a bound, not an estimate.
    const [day] = lenses(deployment('1', `      tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 86400}]\n`));
    assert.match(day.title, /^If its node fails: down more than 2h \(back in 2m: down ~/);
    assert.equal(worstOutageText(day), 'Node failure: down more than 2h');
  });

  it('the status bar agrees with a StatefulSet\'s lens: serving, but short of a replica until someone acts, is worse than no outage', () => {
    const statefulSet = 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  replicas: 3\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: db, image: postgres}]}\n';
    const result = lenses(`${deployment('3')}---\n${statefulSet}`);
    assert.match(result[1].title, /^If its node fails: short of replicas until the node returns or someone acts/);
    assert.equal(worstLens(result), result[1]);
    assert.equal(worstOutageText(result[1]), 'Node failure: short of replicas until someone acts');
  });

  it('a workload scaled to 0, one the API server rejects, one with an autoscaler: lens and hover agree with the diagnostics', () => {
    assert.equal(lenses(deployment('0'))[0].title, 'Scaled to 0: it runs no pod');
    assert.match(at(deployment('|0'), '|0').hover!.markdown, /\nScaled to 0: it runs no pod, so a node failure changes nothing\.\n/);
    const rejected = deployment('|"1"');
    assert.equal(lenses(rejected.replace('|', ''))[0].title, 'If its node fails: not simulated: fix the field the API server rejects first');
    // The status bar does not call a workload it could not simulate "no outage", nor let it hide one that was.
    assert.equal(worstOutageText(worstLens(lenses(rejected.replace('|', '')))!), 'Node failure: not simulated');
    const both = lenses(`${rejected.replace('|', '')}---\n${deployment('1').replace('name: "web"', 'name: "web1"')}`);
    assert.equal(worstLens(both), both[1]);
    assert.match(at(rejected, '|"1"').hover!.markdown, /\n\*\*If its node fails\*\*: not simulated\\: fix the field the API server rejects first\.\n/);
    const hpa = '---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, namespace: shop}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 3\n  maxReplicas: 10\n';
    assert.equal(lenses(`${deployment('1')}${hpa}`)[0].title, 'If its node fails: no outage (3 replicas on 3 nodes)');
    // The autoscaler leaves a target at replicas 0 alone (ScalingDisabled).
    assert.equal(lenses(`${deployment('0')}${hpa}`)[0].title, 'Scaled to 0: it runs no pod');
    assert.match(at(`${deployment('|0')}${hpa}`, '|0').hover!.markdown, /HorizontalPodAutoscaler web does not scale a target at 0: it stays at 0 until you set 1 or more\..*\nScaled to 0: it runs no pod/s);
    assert.match(at(`${deployment('|1')}${hpa}`, '|1').hover!.markdown, /^\*\*replicas: 1\*\*: how many pods Deployment\\\/web runs\. HorizontalPodAutoscaler web sets it, never below 3: the numbers below are for 3\. .*until then the other replicas serve\.\n\n\*\*If its node fails\*\* .*No outage/);
  });

  it('a bare Pod that never restarts stays down when its node comes back', () => {
    const [lens] = lenses('apiVersion: v1\nkind: Pod\nmetadata: {name: once}\nspec:\n  restartPolicy: Never\n  containers: [{name: c, image: busybox}]\n');
    assert.equal(lens.title, 'If its node fails: stuck until someone acts (back in 2m: still down until someone acts)');
  });
});
