import * as assert from 'node:assert/strict';
import { parseKubernetesVersion, type KubernetesVersion } from '../../src/cluster/kubernetesVersion';
import { TimingError, resolveTiming } from '../../src/cluster/timing';

const version = (text: string) => parseKubernetesVersion(text) as KubernetesVersion;

describe('timing profile', () => {
  it('uses node-monitor-grace-period 40s up to 1.31 and 50s from 1.32', () => {
    assert.equal(resolveTiming({ version: version('1.31'), settings: [] }).knobs['kcm.node-monitor-grace-period'].value, 40_000);
    assert.deepEqual(resolveTiming({ version: version('v1.32.1'), settings: [] }).knobs['kcm.node-monitor-grace-period'], { value: 50_000, source: 'default 1.32' });
    assert.equal(resolveTiming({ version: version('1.20'), settings: [] }).knobs['kcm.node-monitor-grace-period'].value, 40_000);
  });

  it('applies the seed presets, and an explicit status update frequency also sets the report frequency', () => {
    const fast = resolveTiming({ version: version('1.29'), profile: 'fast', settings: [] });
    assert.deepEqual(fast.knobs['kubelet.nodeStatusUpdateFrequency'], { value: 4000, source: 'preset fast' });
    assert.equal(fast.knobs['kcm.node-monitor-period'].value, 2000);
    assert.equal(fast.knobs['kcm.node-monitor-grace-period'].value, 20_000);
    assert.deepEqual(fast.knobs['kubelet.nodeStatusReportFrequency'], {
      value: 4000, source: '= kubelet.nodeStatusUpdateFrequency (set explicitly, preset fast)',
    });
    const slow = resolveTiming({ version: version('1.29'), profile: 'slow', settings: [] });
    assert.deepEqual([slow.knobs['kubelet.nodeStatusUpdateFrequency'].value, slow.knobs['kcm.node-monitor-grace-period'].value], [60_000, 300_000]);
    const medium = resolveTiming({ version: version('1.29'), profile: 'medium', settings: [] });
    assert.deepEqual([medium.knobs['kubelet.nodeStatusUpdateFrequency'].value, medium.knobs['kcm.node-monitor-grace-period'].value], [20_000, 120_000]);
  });

  it('accepts --pod-eviction-timeout and says it has no effect', () => {
    const profile = resolveTiming({ version: version('1.29'), profile: 'fast', settings: [] });
    assert.equal(profile.knobs['kcm.pod-eviction-timeout'].value, 30_000);
    assert.deepEqual(profile.notes, [
      "--pod-eviction-timeout was removed in Kubernetes 1.27 and has no effect; the eviction delay is the pod's tolerationSeconds (apiserver --default-unreachable-toleration-seconds).",
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
    assert.deepEqual(profile.knobs['kcm.node-monitor-grace-period'], { value: 45_000, source: '--set' });
    assert.equal(profile.knobs['apiserver.default-unreachable-toleration-seconds'].value, 60);
    assert.equal(profile.knobs['kcm.node-eviction-rate'].value, 0.5);
  });

  it('rejects unknown knobs, bad values and unknown versions with a clear message', () => {
    assert.throws(() => resolveTiming({ version: version('1.31'), settings: [{ name: 'kcm.node-monitor-grace', value: '1s', source: '--set' }] }),
      (e: Error) => e instanceof TimingError && /Unknown setting "kcm.node-monitor-grace" \(--set\); known kcm settings: kcm.node-monitor-period/.test(e.message));
    assert.throws(() => resolveTiming({ version: version('1.31'), settings: [{ name: 'kcm.node-monitor-period', value: '5', source: '--set' }] }),
      /kcm.node-monitor-period must be a duration such as 40s or 1m30s; got "5" \(--set\)/);
    assert.throws(() => resolveTiming({ version: version('1.31'), profile: 'turbo', settings: [] }), /Unknown profile "turbo"; profiles: default, fast, medium, slow/);
    assert.equal(parseKubernetesVersion('1.19'), 'Kubernetes 1.19 is outside the versions the simulator knows (1.20–1.36).');
    assert.equal(parseKubernetesVersion('latest'), '"latest" is not a Kubernetes version; write it like 1.31 or v1.31.2.');
  });
});
