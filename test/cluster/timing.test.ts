import * as assert from 'node:assert/strict';
import { parseKubernetesVersion, type KubernetesVersion } from '../../src/cluster/kubernetesVersion';
import { ALL_KNOBS, TimingError, findKnob, knobsOf, resolveTiming } from '../../src/cluster/timing';

const version = (text: string) => parseKubernetesVersion(text) as KubernetesVersion;
const plain = (knob: { value: unknown; source: string }) => ({ value: knob.value, source: knob.source });

describe('timing configuration', () => {
  it('uses node-monitor-grace-period 40s up to 1.31 and 50s from 1.32', () => {
    assert.equal(resolveTiming({ version: version('1.31'), settings: [] }).controllerManager.nodeMonitorGracePeriod.value, 40_000);
    assert.deepEqual(plain(resolveTiming({ version: version('v1.32.1'), settings: [] }).controllerManager.nodeMonitorGracePeriod), { value: 50_000, source: 'Kubernetes 1.32 default' });
    assert.equal(resolveTiming({ version: version('1.20'), settings: [] }).controllerManager.nodeMonitorGracePeriod.value, 40_000);
  });

  it('knows each field by its component\'s own name, type and unit', () => {
    const timing = resolveTiming({ version: version('1.31'), settings: [] });
    assert.equal(timing.controllerManager.nodeMonitorGracePeriod.spec.name, 'node-monitor-grace-period');
    assert.equal(timing.kubelet.nodeLeaseDurationSeconds.spec.unit, 's');
    assert.equal(findKnob('kubelet.nodeLeaseDurationSeconds')?.field, 'nodeLeaseDurationSeconds');
    assert.equal(findKnob('apiserver.default-unreachable-toleration-seconds')?.component, 'apiServer');
    assert.equal(knobsOf(timing).length, ALL_KNOBS.length);
    assert.equal(new Set(ALL_KNOBS.map((k) => k.qualifiedName)).size, ALL_KNOBS.length, 'qualified names are unique');
  });

  it('derives the lease renewal interval (a quarter of the lease) and the heartbeat write rates', () => {
    const defaults = resolveTiming({ version: version('1.31'), settings: [] });
    assert.deepEqual(defaults.derived, { leaseRenewIntervalMs: 10_000, statusReportFollowsUpdate: false, leaseWritesPerNodePerSecond: 0.1, statusWritesPerNodePerSecond: 1 / 300 });
    const short = resolveTiming({ version: version('1.31'), settings: [{ name: 'kubelet.nodeLeaseDurationSeconds', value: 20, source: 'k.yaml:3' }] });
    assert.equal(short.derived.leaseRenewIntervalMs, 5000);
  });

  it('applies the seed presets, and an explicit status update frequency also sets the report frequency', () => {
    const fast = resolveTiming({ version: version('1.29'), profile: 'fast', settings: [] });
    assert.deepEqual(plain(fast.kubelet.nodeStatusUpdateFrequency), { value: 4000, source: 'preset fast' });
    assert.equal(fast.controllerManager.nodeMonitorPeriod.value, 2000);
    assert.equal(fast.controllerManager.nodeMonitorGracePeriod.value, 20_000);
    assert.deepEqual(plain(fast.kubelet.nodeStatusReportFrequency), {
      value: 4000, source: '= kubelet.nodeStatusUpdateFrequency, set explicitly in preset fast',
    });
    assert.equal(fast.derived.statusReportFollowsUpdate, true);
    assert.equal(fast.derived.statusWritesPerNodePerSecond, 0.25);
    const slow = resolveTiming({ version: version('1.29'), profile: 'slow', settings: [] });
    assert.deepEqual([slow.kubelet.nodeStatusUpdateFrequency.value, slow.controllerManager.nodeMonitorGracePeriod.value], [60_000, 300_000]);
    const medium = resolveTiming({ version: version('1.29'), profile: 'medium', settings: [] });
    assert.deepEqual([medium.kubelet.nodeStatusUpdateFrequency.value, medium.controllerManager.nodeMonitorGracePeriod.value], [20_000, 120_000]);
  });

  it('accepts --pod-eviction-timeout and says it has no effect', () => {
    const profile = resolveTiming({ version: version('1.29'), profile: 'fast', settings: [] });
    assert.equal(profile.controllerManager.podEvictionTimeout.value, 30_000);
    assert.deepEqual(profile.notes, [
      "--pod-eviction-timeout was removed in Kubernetes 1.27: a real kube-controller-manager does not start with it (unknown flag), and the simulation ignores it; the eviction delay is the pod's tolerationSeconds (apiserver --default-unreachable-toleration-seconds).",
    ]);
    const old = resolveTiming({ version: version('1.24'), settings: [{ name: 'kcm.pod-eviction-timeout', value: '1m', source: '--set' }] });
    assert.match(old.notes[0], /ignored with taint-based eviction/);
  });

  it('lets settings override the preset in order, with their source, in Kubernetes duration syntax', () => {
    const profile = resolveTiming({
      version: version('1.31'), profile: 'medium',
      settings: [
        { name: 'kcm.node-monitor-grace-period', value: '1m30s', source: 'kcm.yaml:12' },
        { name: 'kcm.node-monitor-grace-period', value: '45s', source: '--set' },
        { name: 'apiserver.default-unreachable-toleration-seconds', value: 60, source: '--set' },
        { name: 'kcm.node-eviction-rate', value: '0.5', source: '--set' },
      ],
    });
    assert.deepEqual(plain(profile.controllerManager.nodeMonitorGracePeriod), { value: 45_000, source: '--set' });
    assert.equal(profile.apiServer.defaultUnreachableTolerationSeconds.value, 60);
    assert.equal(profile.controllerManager.nodeEvictionRate.value, 0.5);
  });

  it('rejects unknown knobs with the closest names, bad values and unknown versions with a clear message', () => {
    assert.throws(() => resolveTiming({ version: version('1.31'), settings: [{ name: 'kcm.node-monitor-grace', value: '1s', source: '--set' }] }),
      (e: Error) => e instanceof TimingError && /^Unknown setting "kcm.node-monitor-grace" \(--set\); did you mean kcm.node-monitor-grace-period\? Known kcm settings: kcm.node-monitor-grace-period, /.test(e.message));
    assert.throws(() => resolveTiming({ version: version('1.31'), settings: [{ name: 'kcm.node-monitor-period', value: '5', source: '--set' }] }),
      /kcm.node-monitor-period must be a duration such as 40s or 1m30s; got "5" \(--set\)/);
    assert.throws(() => resolveTiming({ version: version('1.31'), profile: 'turbo', settings: [] }), /Unknown profile "turbo"; profiles: default, fast, medium, slow/);
    // Numbers as the components' flag parsers read them, which a cluster file is held to (KFS092).
    const set = (name: string, value: string) => () => resolveTiming({ version: version('1.31'), settings: [{ name, value, source: '--set' }] });
    for (const value of ['99999999999999999999', '1e2', ' 5', '5.0', '', '0x', '08']) {
      assert.throws(set('apiserver.default-unreachable-toleration-seconds', value), /must be a whole number; got/, JSON.stringify(value));
    }
    assert.throws(set('apiserver.default-unreachable-toleration-seconds', '-1'), /must be ≥ 0; got "-1"/);
    // kube-controller-manager checks neither of these int32 flags: ≤ 0 turns pod GC of terminated pods off, or makes every zone large.
    assert.equal(set('kcm.terminated-pod-gc-threshold', '-1')().controllerManager.terminatedPodGcThreshold.value, -1);
    assert.equal(set('kcm.large-cluster-size-threshold', '-0x10')().controllerManager.largeClusterSizeThreshold.value, -16);
    assert.throws(set('kcm.large-cluster-size-threshold', '-2147483649'), /must be ≥ -2147483648/);
    // pflag's base 0: hexadecimal, octal (a leading 0), binary, a sign, underscores.
    const seconds = (value: string) => set('apiserver.default-unreachable-toleration-seconds', value)().apiServer.defaultUnreachableTolerationSeconds.value;
    assert.deepEqual(['0x10', '010', '0o20', '0b10000', '+16', '1_6'].map(seconds), [16, 8, 16, 16, 16, 16]);
    assert.throws(set('sim.nodeObjectBytes', '1e300'), /must be a whole number/);
    for (const value of ['0x10', 'Infinity', ' 0.1', '1e999']) assert.throws(set('kcm.node-eviction-rate', value), /must be a number; got/, value);
    assert.equal(resolveTiming({ version: version('1.31'), settings: [{ name: 'kcm.node-eviction-rate', value: '1e-1', source: '--set' }] }).controllerManager.nodeEvictionRate.value, 0.1);
    assert.equal(parseKubernetesVersion('1.19'), 'Kubernetes 1.19 is outside the versions the simulator knows (1.20–1.36).');
    assert.equal(parseKubernetesVersion('latest'), '"latest" is not a Kubernetes version; write it like 1.31 or v1.31.2.');
    // No Kubernetes minor is written with a leading zero (the schema of scenario files refuses it too).
    assert.equal(parseKubernetesVersion('1.030'), '"1.030" is not a Kubernetes version; write it like 1.31 or v1.31.2.');
  });

  it('refuses a shutdown whose critical pods\' share exceeds the whole, as the kubelet does; in lenient mode drops the share (KFS092 reports it)', () => {
    const settings = [{ name: 'kubelet.shutdownGracePeriod', value: '10s', source: 'kubelet.yaml:3' }, { name: 'kubelet.shutdownGracePeriodCriticalPods', value: '30s', source: '--set' }];
    assert.throws(() => resolveTiming({ version: version('1.31'), settings }),
      (e: Error) => e instanceof TimingError && e.setting?.source === '--set'
        && e.message === 'kubelet.shutdownGracePeriodCriticalPods (30s, --set) must not exceed kubelet.shutdownGracePeriod (10s, kubelet.yaml:3): the kubelet refuses such a configuration and does not start.');
    // Only the share, with the whole left at its default 0: the setting at fault is the share's.
    assert.throws(() => resolveTiming({ version: version('1.31'), settings: settings.slice(1) }), /\(30s, --set\) must not exceed kubelet\.shutdownGracePeriod \(0s, Kubernetes 1\.31 default\)/);
    assert.equal(resolveTiming({ version: version('1.31'), settings: [settings[0], { ...settings[1], value: '10s' }] }).kubelet.shutdownGracePeriodCriticalPods.value, 10_000);
    const errors: TimingError[] = [];
    const lenient = resolveTiming({ version: version('1.31'), settings, onError: (e) => errors.push(e) });
    assert.equal(errors.length, 0);
    assert.equal(lenient.kubelet.shutdownGracePeriodCriticalPods.value, 0);
  });

  it('in lenient mode skips a bad setting, reports it and keeps the others', () => {
    const errors: TimingError[] = [];
    const timing = resolveTiming({
      version: version('1.31'),
      settings: [{ name: 'kubelet.nodeStatusUpdateFrequency', value: '0s', source: 'k.yaml:4' }, { name: 'kcm.node-monitor-period', value: '2s', source: '--set' }],
      onError: (e) => errors.push(e),
    });
    assert.deepEqual(errors.map((e) => e.message), ['kubelet.nodeStatusUpdateFrequency must be ≥ 1 ms; got "0s" (k.yaml:4).']);
    assert.equal(timing.kubelet.nodeStatusUpdateFrequency.value, 10_000);
    assert.equal(timing.controllerManager.nodeMonitorPeriod.value, 2000);
  });
});
