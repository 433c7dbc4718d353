import * as assert from 'node:assert/strict';
import { Workspace } from '../../src/workspace/workspace';
import { analyse } from '../support/workspace';

const kcm = (...flags: string[]) => [
  'apiVersion: v1',
  'kind: Pod',
  'metadata: {name: kube-controller-manager, namespace: kube-system}',
  'spec:',
  '  containers:',
  '  - name: kube-controller-manager',
  '    image: registry.k8s.io/kube-controller-manager:v1.29.7',
  '    command:',
  '    - kube-controller-manager',
  ...flags.map((f) => `    - ${f}`),
].join('\n');

const kubelet = (...lines: string[]) => ['apiVersion: kubelet.config.k8s.io/v1beta1', 'kind: KubeletConfiguration', ...lines].join('\n');

describe('cluster configuration rules', () => {
  it('KFS060: --pod-eviction-timeout is reported on the flag: removed from 1.27 (the controller-manager does not start), ignored before', () => {
    const { findings } = analyse(kcm('--pod-eviction-timeout=30s'));
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.range.start.line, f.range.start.character]), [['KFS060', 'error', 9, 6]]);
    assert.equal(findings[0].unnecessary, undefined, 'a flag that must go is not faded');
    assert.match(analyse(kcm('--pod-eviction-timeout=30s').replace(':v1.29.7', ':latest')).findings[0].message, /^--pod-eviction-timeout was removed in Kubernetes 1\.27: kube-controller-manager 1\.36 \(newest known\) does not start with it \(unknown flag\)\. Remove it: pods on a failed node are deleted tolerationSeconds after the node's NoExecute taint \(300s for pods that set none: --default-unreachable-toleration-seconds, Kubernetes 1\.36 default\), not after this timeout\.$/);
    const v126 = { overrides: [], version: { value: '1.26', source: 'test' } };
    const [ignored] = analyse(kcm('--pod-eviction-timeout=30s'), [], v126).findings;
    assert.deepEqual([ignored.severity, ignored.unnecessary], ['warning', true], 'faded in the editor as text with no effect');
    assert.match(ignored.message, /^--pod-eviction-timeout=30s has no effect: pods on a failed node are deleted tolerationSeconds after/);
    // Without a version setting or a kubeadm ClusterConfiguration, the control-plane image's tag gives it.
    const [fromImage] = analyse(kcm('--pod-eviction-timeout=30s').replace('v1.29.7', 'v1.26.3')).findings;
    assert.equal(fromImage.severity, 'warning');
    assert.match(analyse(kcm('--pod-eviction-timeout=30s')).findings[0].message, /kube-controller-manager 1\.29 \(main\.yaml:7\) does not start with it/);
    const kubeadm = 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.26.0\n';
    assert.equal(analyse(kcm('--pod-eviction-timeout=30s'), [kubeadm]).findings[0].severity, 'warning', 'a ClusterConfiguration comes before an image tag');
    // With the taint manager off (legacy eviction, up to 1.26) the timeout is what deletes the pods.
    assert.deepEqual(analyse(kcm('--pod-eviction-timeout=30s', '--enable-taint-manager=false'), [], v126).findings.filter((f) => f.ruleId === 'KFS060'), []);
    const apiserver = 'apiVersion: v1\nkind: Pod\nmetadata: {name: kube-apiserver, namespace: kube-system}\nspec:\n  containers:\n  - name: kube-apiserver\n    command:\n    - kube-apiserver\n    - --default-unreachable-toleration-seconds=60\n';
    assert.match(analyse(kcm('--pod-eviction-timeout=30s'), [apiserver]).findings[0].message, /\(60s for pods that set none: --default-unreachable-toleration-seconds, other\.yaml:9\)/);
  });

  it('KFS060: --enable-taint-manager is refused from 1.27 (removed with --pod-eviction-timeout), whatever its value; up to 1.26 it selects the legacy path', () => {
    const findings = analyse(kcm('--enable-taint-manager=true')).findings;
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.range.start.line]), [['KFS060', 'error', 9]]);
    assert.match(findings[0].message, /^--enable-taint-manager was removed in Kubernetes 1\.27: kube-controller-manager 1\.29 \(main\.yaml:7\) does not start with it \(unknown flag\)\. Remove it: taint-based eviction always runs/);
    const v126 = { overrides: [], version: { value: '1.26', source: 'test' } };
    assert.deepEqual(analyse(kcm('--enable-taint-manager=false'), [], v126).findings.filter((f) => f.ruleId === 'KFS060'), []);
  });

  it('KFS061: a grace period shorter than the lease (fewer than 4 renewals) invites flapping', () => {
    assert.equal(analyse(kcm('--node-monitor-grace-period=20s')).findings[0].message,
      'node-monitor-grace-period 20s invites false NotReady: kubelets renew their 40s node lease every 10s, so only 2 renewals fit in it, and a brief API server or network hiccup marks healthy nodes Unknown and taints them. Keep it at least the lease duration (40s); to evict sooner, shorten tolerationSeconds instead.');
    assert.deepEqual(analyse(kcm('--node-monitor-grace-period=40s')).findings, []);
    assert.equal(analyse(kcm('--node-monitor-grace-period=20s')).findings[0].unnecessary, undefined, 'a flag that does something is not faded');
    // A 20 s lease is renewed every 5 s, so 20 s of grace is both the lease and four renewals: no finding.
    assert.deepEqual(analyse(kcm('--node-monitor-grace-period=20s'), [kubelet('nodeLeaseDurationSeconds: 20')]).findings, []);
    // An 80 s lease renewed every 20 s: 60 s is less than the lease.
    const [finding] = analyse(kcm('--node-monitor-grace-period=60s'), [kubelet('nodeLeaseDurationSeconds: 80', 'nodeStatusReportFrequency: 5m')]).findings;
    assert.equal(finding.ruleId, 'KFS061');
    assert.match(finding.message, /renew their 80s node lease every 20s, so only 3 renewals fit/);
    // The lease alone, against the version's grace period: said at the lease.
    const [alone] = analyse(kubelet('nodeLeaseDurationSeconds: 80')).findings.filter((f) => f.ruleId === 'KFS061');
    assert.equal(alone.message, 'nodeLeaseDurationSeconds 80 invites false NotReady: the kubelet renews its lease every 20s, so only 2 renewals fit in node-monitor-grace-period 50s (Kubernetes 1.36 default), and a brief API server or network hiccup marks healthy nodes Unknown and taints them. Keep the lease at most the grace period, or raise the grace period with it.');
    assert.equal(alone.range.start.line, 2);
    assert.deepEqual(analyse(kubelet('nodeLeaseDurationSeconds: 50')).findings.filter((f) => f.ruleId === 'KFS061'), []);
    // Only the lease in effect: a later file's or a setting's lease is the one the finding would speak of.
    const later = new Workspace({ overrides: [] });
    later.setDocument('kc1.yaml', kubelet('nodeLeaseDurationSeconds: 30'));
    later.setDocument('kc2.yaml', kubelet('nodeLeaseDurationSeconds: 60'));
    assert.deepEqual(later.analyse('kc1.yaml').findings.filter((f) => f.ruleId === 'KFS061'), []);
    assert.deepEqual(later.analyse('kc2.yaml').findings.filter((f) => f.ruleId === 'KFS061').map((f) => f.range.start.line), [2]);
    assert.deepEqual(analyse(kubelet('nodeLeaseDurationSeconds: 30'), [], { overrides: [{ name: 'kubelet.nodeLeaseDurationSeconds', value: '60', source: 'settings' }] }).findings.filter((f) => f.ruleId === 'KFS061'), []);
    // With the grace period in another file, that file's flag has the finding, not the lease too.
    assert.deepEqual(analyse(kubelet('nodeLeaseDurationSeconds: 80'), [kcm('--node-monitor-grace-period=60s')]).findings.filter((f) => f.ruleId === 'KFS061'), []);
  });

  it('KFS092: a misspelt or one-dash flag, which the controller-manager does not start with, is an error and not applied', () => {
    const text = kcm('--node-monitor-grace-periodd=20s', '-node-monitor-period=2s', '-v=2', '--kubeconfig=/etc/kubernetes/controller-manager.conf');
    const { findings } = analyse(text);
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.range.start.line, f.message]), [
      ['KFS092', 'error', 9, 'kube-controller-manager has no flag --node-monitor-grace-periodd; did you mean --node-monitor-grace-period? It does not start with an unknown flag.'],
      ['KFS092', 'error', 10, 'kube-controller-manager reads -node-monitor-period as one-letter flags (one dash) and does not start; write --node-monitor-period.'],
    ]);
  });

  it('KFS092: a KubeletConfiguration of another apiVersion, which the kubelet does not start with; a misspelt field, which it ignores', () => {
    const wrongVersion = analyse(kubelet('nodeStatusUpdateFrequency: 4s').replace('kubelet.config.k8s.io/v1beta1', 'kubelet.config.k8s.io/v1')).findings;
    assert.deepEqual(wrongVersion.map((f) => [f.severity, f.range.start.line]), [['error', 0]]);
    assert.match(wrongVersion[0].message, /^KubeletConfiguration is served as kubelet\.config\.k8s\.io\/v1beta1 only: the kubelet does not start with apiVersion kubelet\.config\.k8s\.io\/v1/);
    const misspelt = analyse(kubelet('nodeStatusUpdateFrequencyy: 4s', 'syncFrequency: 1m')).findings.filter((f) => f.ruleId === 'KFS092');
    assert.deepEqual(misspelt.map((f) => [f.severity, f.range.start.line, f.range.start.character, f.range.end.character]), [['warning', 2, 0, 26]]);
    assert.match(misspelt[0].message, /did you mean nodeStatusUpdateFrequency\? The kubelet ignores it/);
  });

  it('KFS092: a flag given twice is reported where it has no effect, and the rules read the last value, as the component does', () => {
    const { findings } = analyse(kcm('--node-monitor-grace-period=20s', '--node-monitor-grace-period=40s'));
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.range.start.line, f.message]), [
      ['KFS092', 'warning', 9, 'kube-controller-manager flag --node-monitor-grace-period is given again at line 11; this value (20s) is not used, the last one (40s) is.'],
    ]);
  });

  it('KFS092: a flag value that simulate refuses is an error, so check fails where simulate would', () => {
    const { findings } = analyse(kcm('--node-monitor-period=0s'));
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.message]), [['KFS092', 'error', 'kcm.node-monitor-period must be ≥ 1 ms; got "0s" (main.yaml:10).']]);
  });

  it('KFS092: a flag past its Go type (an int64, a time.Duration), which the component does not start with', () => {
    const messages = analyse(kcm('--node-monitor-grace-period=9999999h', '--large-cluster-size-threshold=3000000000')).findings.map((f) => f.message);
    assert.deepEqual(messages, [
      'kube-controller-manager flag --node-monitor-grace-period must be a duration ≥ 0 such as "40s" or "1m30s"; it is "9999999h".',
      'kube-controller-manager flag --large-cluster-size-threshold must be a whole number from -2147483648 to 2147483647 (a 32-bit integer); it is "3000000000".',
    ]);
    // Nothing in kube-controller-manager refuses a negative threshold: pod GC of terminated pods is off, every zone is large.
    assert.deepEqual(analyse(kcm('--terminated-pod-gc-threshold=-1', '--large-cluster-size-threshold=-2147483648')).findings.filter((f) => f.ruleId === 'KFS092'), []);
    // An int flag is 64 bits: its largest value passes, one more does not (compared as text: 2^63 is not exact as a number).
    const apiserver = (value: string) => analyse(kcm(`--default-unreachable-toleration-seconds=${value}`).replace(/kube-controller-manager/g, 'kube-apiserver')).findings.map((f) => f.message);
    assert.deepEqual(apiserver('9223372036854775807').filter((m) => m.includes('64-bit')), []);
    assert.match(apiserver('9223372036854775808')[0], /must be a whole number from 0 to 9223372036854775807 \(a 64-bit integer\)/);
    assert.deepEqual(analyse(kubelet('nodeLeaseDurationSeconds: 3000000000')).findings.map((f) => f.message), ['nodeLeaseDurationSeconds is 3000000000; it must be ≤ 2147483647.']);
  });

  it('KFS092: a command item that is not a string is reported once, in a control-plane pod and in a workload\'s pod', () => {
    assert.deepEqual(analyse(kcm('42')).findings.map((f) => f.message), ['spec.containers[0].command[1] must be a string; it is 42 (write it in quotes: "42").']);
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop}\nspec:\n  containers: [{name: c, image: app, command: [run, 42]}]\n';
    assert.equal(analyse(pod).findings.filter((f) => f.ruleId === 'KFS092').length, 1);
  });

  it('KFS092: shutdownGracePeriodCriticalPods longer than shutdownGracePeriod, which the kubelet refuses at start', () => {
    const messages = (...lines: string[]) => analyse(kubelet(...lines)).findings.map((f) => [f.ruleId, f.range.start.line, f.message]);
    assert.deepEqual(messages('shutdownGracePeriod: 30s', 'shutdownGracePeriodCriticalPods: 40s'), [['KFS092', 3,
      'shutdownGracePeriodCriticalPods 40s must not exceed shutdownGracePeriod 30s: the kubelet does not start with this configuration. It is the part of shutdownGracePeriod kept for critical pods.']]);
    assert.match(String(messages('shutdownGracePeriodCriticalPods: 10s')[0][2]), /must not exceed shutdownGracePeriod \(0s, not set\)/);
    assert.deepEqual(messages('shutdownGracePeriod: 30s', 'shutdownGracePeriodCriticalPods: 30s'), []);
  });

  it('KFS092: shutdownGracePeriodByPodPriority beside shutdownGracePeriod, which the kubelet refuses at start', () => {
    const { findings } = analyse(kubelet('shutdownGracePeriod: 30s', 'shutdownGracePeriodByPodPriority:', '- {priority: 0, shutdownGracePeriodSeconds: 60}'));
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.range.start.line, f.message]), [['KFS092', 'error', 4,
      'shutdownGracePeriodByPodPriority cannot be set together with shutdownGracePeriod or shutdownGracePeriodCriticalPods: the kubelet does not start with this configuration.']]);
    // Beside periods of 0s it is fine (the kubelet refuses only non-zero ones); before 1.24 its gate is off and the kubelet refuses it.
    const zero = kubelet('shutdownGracePeriod: 0s', 'shutdownGracePeriodByPodPriority:', '- {priority: 0, shutdownGracePeriodSeconds: 60}');
    assert.deepEqual(analyse(zero).findings, []);
    const old = analyse(zero, [], { overrides: [], version: { value: '1.23', source: 'test' } }).findings;
    assert.deepEqual(old.map((f) => [f.ruleId, f.severity, f.range.start.line]), [['KFS092', 'error', 4]]);
    assert.match(old[0].message, /^shutdownGracePeriodByPodPriority needs Kubernetes 1\.24 or later .*: the kubelet refuses it in 1\.23 \(main\.yaml:5\)\.$/);
  });

  it('KFS092: --disable-force-detach-on-timeout before Kubernetes 1.30, which does not know it (audit)', () => {
    const flag = kcm('--disable-force-detach-on-timeout=true');
    const old = analyse(flag).findings;
    assert.deepEqual(old.map((f) => [f.ruleId, f.severity, f.range.start.line]), [['KFS092', 'error', 9]]);
    assert.match(old[0].message, /^--disable-force-detach-on-timeout exists only from Kubernetes 1\.30: kube-controller-manager does not start with it \(unknown flag\) in 1\.29 \(main\.yaml:10\)\.$/);
    assert.deepEqual(analyse(flag.replace('v1.29.7', 'v1.30.1')).findings, []);
  });

  it('KFS008: with DefaultTolerationSeconds disabled in kube-apiserver the pods get no default toleration and go as soon as the node is tainted', () => {
    const apiserver = kcm('--disable-admission-plugins=NamespaceLifecycle,DefaultTolerationSeconds', '--default-unreachable-toleration-seconds=120').replace(/kube-controller-manager/g, 'kube-apiserver');
    const web = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: app}]}\n';
    const { findings } = analyse(web, [apiserver]);
    const kfs008 = findings.find((f) => f.ruleId === 'KFS008')!;
    assert.match(kfs008.message, /^Its pods get no toleration of a dead node: the API server's DefaultTolerationSeconds admission is disabled \(other\.yaml:10, --disable-admission-plugins\), so a pod on a failed node is deleted about (3|4|5)\ds after the failure, as soon as its node is tainted\./);
    assert.match(kfs008.fixes![0].title, /^Write tolerations of a dead node \(300s\)/);
    // A value set over it (--set, the editor's timing setting) is the one simulated, and said as such.
    const overridden = analyse(web, [apiserver], { overrides: [{ name: 'apiserver.default-unreachable-toleration-seconds', value: 60, source: '--set' }] }).findings.find((f) => f.ruleId === 'KFS008')!;
    assert.match(overridden.message, /^Its pods get tolerationSeconds 60 for a dead node from the API server's DefaultTolerationSeconds admission \(--default-unreachable-toleration-seconds=60, --set\)/);
  });

  it('KFS092: a KubeletConfiguration setting written again in a later document is reported where it is not used; KFS062 sits on the one in effect', () => {
    const { findings } = analyse(`${kubelet('nodeStatusUpdateFrequency: 4s')}\n---\n${kubelet('nodeStatusUpdateFrequency: 20s')}`);
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.range.start.line]), [['KFS092', 'warning', 2], ['KFS062', 'info', 6]]);
    assert.equal(findings[0].message, 'kubelet.nodeStatusUpdateFrequency is set again at main.yaml:7; this value (4s) is not used, that one (20s) is.');
  });

  it('KFS092: a control-plane image of a version the simulator does not know is said to get the newest defaults (a warning: no mistake in the input)', () => {
    const { findings } = analyse(kcm('--node-monitor-grace-period=40s').replace('v1.29.7', 'v1.18.3'));
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity, f.range.start.line]), [['KFS092', 'warning', 6]]);
    assert.match(findings[0].message, /^version v1\.18\.3: Kubernetes 1\.18 is outside the versions the simulator knows \(1\.20–1\.\d+\)\. The defaults of 1\.\d+ are used\.$/);
  });

  it('KFS062 sits on the setting that makes the load, where it is the one in effect', () => {
    // An explicit report frequency makes the status load, not the update frequency beside it.
    assert.deepEqual(analyse(kubelet('nodeStatusUpdateFrequency: 1s', 'nodeStatusReportFrequency: 10s')).findings.filter((f) => f.ruleId === 'KFS062').map((f) => f.range.start.line), [3]);
    // A one-second lease makes the load, not a slow status report.
    const lease = analyse(kubelet('nodeStatusReportFrequency: 10m', 'nodeLeaseDurationSeconds: 1')).findings.filter((f) => f.ruleId === 'KFS062');
    assert.deepEqual(lease.map((f) => f.range.start.line), [3]);
    // A frequency a later file sets again is not the one in effect: that file has the finding.
    const workspace = new Workspace({ overrides: [] });
    workspace.setDocument('kc1.yaml', kubelet('nodeStatusUpdateFrequency: 4s'));
    workspace.setDocument('kc20.yaml', kubelet('nodeStatusUpdateFrequency: 20s'));
    const load = (uri: string) => workspace.analyse(uri).findings.filter((f) => f.ruleId === 'KFS062');
    assert.deepEqual(load('kc1.yaml'), []);
    assert.deepEqual(load('kc20.yaml').map((f) => [f.range.start.line, /write 3,000 node statuses per minute/.test(f.message)]), [[2, true]]);
  });

  it('KFS062: an explicit status update frequency is reported with its etcd write load on 1,000 nodes', () => {
    const { findings } = analyse(kubelet('nodeStatusUpdateFrequency: 4s'));
    assert.equal(findings.length, 1);
    assert.equal(findings[0].ruleId, 'KFS062');
    assert.equal(findings[0].severity, 'info');
    assert.match(findings[0].message, /write 15,000 node statuses per minute to etcd \(nodeStatusReportFrequency is not set, so it follows nodeStatusUpdateFrequency: 4s\), plus 6,000 lease renewals/);
    // Setting the report frequency back to 5 minutes keeps the default load: nothing to report.
    assert.deepEqual(analyse(kubelet('nodeStatusUpdateFrequency: 4s', 'nodeStatusReportFrequency: 5m')).findings, []);
  });
});
