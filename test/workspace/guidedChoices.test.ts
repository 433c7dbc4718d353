import * as assert from 'node:assert/strict';
import { defaultCluster } from '../../src/cluster/clusterSpec';
import { FAILURE_KINDS } from '../../src/sim/scenario';
import {
  FAILURE_OPTIONS, intervention, requestChoices, requestScenarioFile, RETURN_OPTIONS, scenarioRequest, targetOptions, type SimulationRequest,
} from '../../src/workspace/guidedChoices';
import { readScenarioFile, writeScenarioFile } from '../../src/workspace/scenarioFile';

describe('guided "Simulate Node Failure…" choices', () => {
  it('offers every failure the simulator has, in plain words', () => {
    assert.deepEqual(FAILURE_OPTIONS.map((o) => o.value), [...FAILURE_KINDS]);
    assert.deepEqual(FAILURE_OPTIONS.map((o) => o.label), ['Power off the node', 'Stop the kubelet, containers keep running', 'Cut the node off the network', 'The kubelet reports NotReady (runtime down)', 'The disk fails, the node stays Ready', 'Shut the node down gracefully', 'Lose a whole zone']);
  });

  it('offers a workload\'s node, each node and each zone as the target', () => {
    const options = targetOptions([{ kind: 'Deployment', name: 'web' }], defaultCluster().nodes);
    assert.deepEqual(options.map((o) => `${o.label} -> ${o.value.join(',')}`), [
      'The node that runs Deployment/web -> Deployment/web',
      'Node worker-a1 -> node/worker-a1', 'Node worker-a2 -> node/worker-a2', 'Node worker-b1 -> node/worker-b1',
      'Node worker-b2 -> node/worker-b2', 'Node worker-c1 -> node/worker-c1', 'Node worker-c2 -> node/worker-c2',
      'Every node of zone-a -> node/worker-a1,node/worker-a2', 'Every node of zone-b -> node/worker-b1,node/worker-b2', 'Every node of zone-c -> node/worker-c1,node/worker-c2',
    ]);
  });

  it('asks when the node returns: never, after 1, 2, 5 or 10 minutes, or a typed time', () => {
    assert.deepEqual(RETURN_OPTIONS.map((o) => o.value), [null, 60_000, 120_000, 300_000, 600_000, undefined]);
  });

  it('force-deletes the pods of the target workload, or of the first workload when a node is the target', () => {
    assert.deepEqual(intervention('force-delete', 360_000, ['StatefulSet/db'], 'Deployment/web'), { kind: 'force-delete', target: 'StatefulSet/db', atMs: 360_000 });
    assert.deepEqual(intervention('force-delete', 360_000, ['node/worker-a1'], 'Deployment/web'), { kind: 'force-delete', target: 'Deployment/web', atMs: 360_000 });
    assert.deepEqual(intervention('delete-node', 600_000, ['node/worker-a1'], undefined), { kind: 'delete-node', atMs: 600_000 });
  });

  it('saves the answers as a scenario file that reads back as the same request', () => {
    const request: SimulationRequest = {
      failure: 'kubelet-stop', targets: ['StatefulSet/db'], recoverAfterMs: 90_000,
      interventions: [{ kind: 'force-delete', target: 'StatefulSet/db', atMs: 360_000 }, { kind: 'out-of-service', atMs: 420_000 }], durationMs: 1_200_000,
    };
    const file = writeScenarioFile(requestScenarioFile('db', 'db.yaml', request));
    const { scenario, problems } = readScenarioFile(file);
    assert.deepEqual(problems, []);
    assert.deepEqual(scenarioRequest(scenario!), request);
    assert.deepEqual(requestChoices(request, ['file:///db.yaml']), {
      failure: 'kubelet-stop', targets: ['StatefulSet/db'], preFailureMs: 0, recoverAfterMs: 90_000, interventions: request.interventions,
      durationMs: 1_200_000, seed: 1, documents: ['file:///db.yaml'],
    });
  });
});
