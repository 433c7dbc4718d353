// Extracts the figures the fidelity tests compare against from ../shared/ground-truth
// (timelines recorded on a real Kubernetes 1.29 control plane) into test/fixtures, so the
// tests run on a clone without ../shared. Run: node scripts/extract-ground-truth.mjs
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2] ?? join(import.meta.dirname, '..', '..', 'shared', 'ground-truth');
const recordings = [];
const seconds = (v) => (typeof v === 'number' ? v : null);

for (const run of ['run1', 'run2', 'run3']) {
  for (const file of readdirSync(join(root, run)).filter((f) => /^[a-z][0-9]?\.json$/.test(f)).sort()) {
    const data = JSON.parse(readFileSync(join(root, run, file), 'utf8'));
    const k = data.keyTransitions;
    const lastStatus = data.events.find((e) => e.what.startsWith('last NodeStatus heartbeat'));
    recordings.push({
      id: `${run}/${data.scenario}`,
      scenario: data.scenario.replace(/[0-9]+$/, ''),
      description: data.description,
      statusPosts: run === 'run1' ? 'every 10s' : 'kubelet',
      // One run failed its nodes one after another on one cluster: the instant of this failure.
      failureEpochMs: data.failureInstantEpochMs,
      gracePeriodSeconds: 40,
      failedNode: data.failedNodes[0],
      lastLeaseRenewalS: k.lastLeaseRenewalBeforeFailure_s,
      lastStatusPostS: lastStatus ? lastStatus.t_s : null,
      nodeReadyUnknownS: k.nodeReadyUnknown_s,
      taintNoScheduleS: k.taintUnreachableNoSchedule_s,
      taintNoExecuteS: k.taintUnreachableNoExecute_s,
      podReadyFalseS: seconds(k.podReadyFalse_s),
      dsPodReadyFalseS: seconds(k.dsPodReadyFalse_s),
      podDeletionS: seconds(k.podDeletionTimestamp_s),
      replacementCreatedS: seconds(k.replacementCreated_s),
      replacementBoundS: seconds(k.replacementBound_s),
      replacementReadyS: seconds(k.replacementReady_s),
      replacementUnschedulableMessage: k.replacementUnschedulableMessage ?? null,
      endpointNotReadyS: seconds(k.endpointNotReady_s),
      endpointTerminatingS: seconds(k.endpointTerminating_s),
      newEndpointReadyS: seconds(k.newEndpointReady_s),
      observedUntilS: k.observedUntil_s,
      originalPodsAtEnd: k.originalPodsAtEnd,
      dsPodsAtEnd: k.dsPodsAtEnd,
    });
  }
}

for (const file of readdirSync(join(root, 'grace50')).filter((f) => f.endsWith('.json')).sort()) {
  const data = JSON.parse(readFileSync(join(root, 'grace50', file), 'utf8'));
  const k = data.keyTransitions;
  const node = k.perNode[0];
  const at = (text) => Number(text.split(':')[0]);
  const original = k.originalPods[0];
  const replacement = k.replacementPods[0];
  recordings.push({
    id: `grace50/${data.scenario}`,
    scenario: 'a',
    description: data.description,
    statusPosts: 'kubelet',
    gracePeriodSeconds: 50,
    failedNode: node.node,
    lastLeaseRenewalS: node.lastLeaseRenewalBeforeFailure_s - node.failedAt_s,
    lastStatusPostS: null,
    nodeReadyUnknownS: at(node.readyTransitions[0]) - node.failedAt_s,
    taintNoScheduleS: at(node.taints.find((t) => t.includes('NoSchedule'))) - node.failedAt_s,
    taintNoExecuteS: at(node.taints.find((t) => t.includes('NoExecute'))) - node.failedAt_s,
    podReadyFalseS: original.readyFalse_s - node.failedAt_s,
    dsPodReadyFalseS: k.dsPodsOnFailedNodes[0].readyFalse_s - node.failedAt_s,
    podDeletionS: original.deletionTimestamp_s - node.failedAt_s,
    replacementCreatedS: replacement.created_s - node.failedAt_s,
    replacementBoundS: replacement.bound_s - node.failedAt_s,
    replacementReadyS: replacement.ready_s - node.failedAt_s,
    replacementUnschedulableMessage: null,
    endpointNotReadyS: null,
    endpointTerminatingS: null,
    newEndpointReadyS: null,
    observedUntilS: k.observedUntil_s,
    originalPodsAtEnd: k.podsAtEnd.filter((p) => p.startsWith(original.pod.split(' ')[0])),
    dsPodsAtEnd: k.podsAtEnd.filter((p) => p.startsWith('ds-')),
  });
}

const out = join(import.meta.dirname, '..', 'test', 'fixtures', 'ground-truth.json');
writeFileSync(out, `${JSON.stringify({
  source: 'Extracted by scripts/extract-ground-truth.mjs from ../shared/ground-truth (Kubernetes v1.29.7, default flags; grace50: --node-monitor-grace-period=50s). Seconds from the failure instant.',
  scriptedKubelet: { leaseRenewIntervalSeconds: 10, leaseDurationSeconds: 40, podStartLatencySeconds: 1.5, podKillLatencySeconds: 1 },
  recordings,
}, null, 1)}\n`);
console.log(`${recordings.length} recordings written to ${out}`);
