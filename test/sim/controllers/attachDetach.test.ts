/** The attach-detach controller alone (SEMANTICS.md 7.3) for one ReadWriteOnce volume attached to node a. */
import * as assert from 'node:assert/strict';
import { AttachDetachController } from '../../../src/sim/attachDetach';
import type { SimClaim, SimPod, SimVolume } from '../../../src/sim/objects';
import { deploymentYaml, events, Harness } from './harness';

const MINUTE = 60_000;

function setup(version = '1.29', set: Record<string, string> = {}) {
  const h = new Harness({ nodes: ['a', 'b'], version, set: { 'sim.volumeAttachLatency': '10s', ...set } });
  const volume: SimVolume = { name: 'disk', exclusive: true, nodeAffinity: [], local: false, attachedTo: 'a' };
  h.store.volumes.push(volume);
  const claims: SimClaim[] = [{ name: 'data', namespace: 't', volume }];
  const workload = h.workload(deploymentYaml('app'));
  const old = h.runningPod(workload, 'a', { claims });
  new AttachDetachController(h.ctx);
  return { h, volume, claims, old, workload };
}

/** Node a powers off (its kubelet is gone, Ready=Unknown) at 1 s; a replacement is bound to b at 2 s. */
function failAndReplace(h: Harness, claims: SimClaim[], workload: ReturnType<Harness['workload']>): SimPod {
  h.clock.at(1000, () => {
    h.store.setHost(h.node('a'), { powered: false, kubeletRunning: false, apiReachable: false, dataPlaneReachable: false });
    h.store.setNodeReady(h.node('a'), 'Unknown', 'NodeStatusUnknown', '');
  });
  const replacement = h.runningPod(workload, 'b', { claims });
  h.clock.at(2000, () => h.store.patchPodStatus(replacement, { phase: 'Pending', containerState: 'waiting', containerReason: 'ContainerCreating', ready: false }));
  return replacement;
}

const detached = (h: Harness) => h.events((e) => e.type === 'VolumeDetached').map((e) => [e.t, e.detail?.cause]);
const attached = (h: Harness) => h.events((e) => e.type === 'VolumeAttached').map((e) => [e.t, e.detail?.node]);

describe('attachDetach', () => {
  it('never detaches while the old pod object exists on the dead node: the replacement gets a Multi-Attach error', () => {
    const { h, claims, workload, old } = setup();
    failAndReplace(h, claims, workload);
    h.clock.at(3000, () => h.store.deletePod(old, 30, 'test'));
    h.run(30 * MINUTE);
    assert.deepEqual(detached(h), []);
    const [multi] = h.events(events.reason('FailedAttachVolume'));
    assert.match(String(multi.detail?.message), /^Multi-Attach error for volume "disk" Volume is already used by pod\(s\) app-/);
  });

  it('once the old pod is gone from a node that is not Ready: force detach 6 minutes later, then attach to the new node', () => {
    const { h, claims, workload, old } = setup();
    failAndReplace(h, claims, workload);
    h.clock.at(60_000, () => h.store.removePod(old, 'test'));
    h.run(30 * MINUTE);
    assert.deepEqual(detached(h), [[60_000 + 6 * MINUTE, 'force-detach-timeout']]);
    assert.deepEqual(attached(h), [[60_000 + 6 * MINUTE + 10_000, 'b']]);
  });

  it('with the out-of-service taint: detach at once', () => {
    const { h, claims, workload, old } = setup();
    failAndReplace(h, claims, workload);
    h.clock.at(60_000, () => {
      h.store.addTaint(h.node('a'), { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }, 'test');
      h.store.removePod(old, 'test');
    });
    h.run(30 * MINUTE);
    assert.deepEqual(detached(h), [[60_000, 'out-of-service']]);
  });

  it('--disable-force-detach-on-timeout (1.30+): never detached from the dead node', () => {
    const { h, claims, workload, old } = setup('1.30', { 'kcm.disable-force-detach-on-timeout': 'true' });
    failAndReplace(h, claims, workload);
    h.clock.at(60_000, () => h.store.removePod(old, 'test'));
    h.run(30 * MINUTE);
    assert.deepEqual(detached(h), []);
  });

  it('from a Ready node whose kubelet unmounts: detach about a second after the pod is gone', () => {
    const { h, old } = setup();
    h.clock.at(5000, () => h.store.removePod(old, 'test'));
    h.run(MINUTE);
    assert.deepEqual(detached(h), [[6000, 'unmounted']]);
  });

  it('from a NotReady node whose kubelet is alive (runtime down): it unmounts, so a normal detach, not the 6-minute force detach', () => {
    const { h, old } = setup();
    h.clock.at(1000, () => h.store.setNodeReady(h.node('a'), 'False', 'KubeletNotReady', 'container runtime is down'));
    h.clock.at(5000, () => h.store.removePod(old, 'test'));
    h.run(MINUTE);
    assert.deepEqual(detached(h), [[6000, 'unmounted']]);
  });
});
