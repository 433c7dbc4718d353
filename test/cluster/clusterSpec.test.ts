import * as assert from 'node:assert/strict';
import { defaultCluster, defaultClusterFitting } from '../../src/cluster/clusterSpec';
import { simulate } from '../../src/sim/simulate';
import { defaultChoices } from '../../src/workspace/simulationChoices';
import { Workspace } from '../../src/workspace/workspace';
import { deployment } from '../sim/support';

describe('the default cluster fitted to what a workload asks of a node', () => {
  it('every node gets a label the pods select, a zone asked for, and room for the requests', () => {
    const fitted = defaultClusterFitting({ labels: { disktype: 'ssd', 'topology.kubernetes.io/zone': 'us-east-1a' }, cpuMillis: 8000, memoryBytes: 0 });
    assert.deepEqual(fitted.nodes.map((n) => [n.labels.disktype, n.zone.endsWith('us-east-1a'), n.allocatable.cpuMillis]), Array(6).fill(['ssd', true, 8000]));
    assert.match(fitted.source, /^the default 6 workers fitted to what its pods ask for: 8 CPU \/ 14\.6 GiB allocatable each, labelled disktype=ssd, topology\.kubernetes\.io\/zone=us-east-1a$/);
  });

  it('stays the plain default when a node already fits; a hostname asked for names one node', () => {
    assert.deepEqual(defaultClusterFitting({ labels: { 'kubernetes.io/hostname': 'worker-b1' }, cpuMillis: 100, memoryBytes: 0 }), defaultCluster());
    const pinned = defaultClusterFitting({ labels: { 'kubernetes.io/hostname': 'db-7' }, cpuMillis: 0, memoryBytes: 0 });
    assert.deepEqual(pinned.nodes.filter((n) => n.labels['kubernetes.io/hostname'] === 'db-7').map((n) => n.name), ['db-7']);
  });
});

describe('the cluster of Node objects in the input', () => {
  it('takes two Node objects of one name as one Node, with the later one\'s fields, as kubectl apply makes them', () => {
    const workspace = new Workspace();
    const node = (name: string, zone: string) => `apiVersion: v1\nkind: Node\nmetadata: {name: ${name}, labels: {topology.kubernetes.io/zone: ${zone}}}\n`;
    workspace.setDocument('nodes.yaml', `${node('n1', 'z1')}---\n${node('n2', 'z1')}`);
    workspace.setDocument('more-nodes.yaml', node('n1', 'z2'));
    workspace.setDocument('web.yaml', deployment('web', 1));
    const scenario = workspace.scenario(defaultChoices());
    assert.deepEqual(scenario.cluster.nodes.map((n) => [n.name, n.labels['topology.kubernetes.io/zone']]), [['n1', 'z2'], ['n2', 'z1']]);
    const nodeLanes = simulate(scenario).states.filter((s) => s.object.kind === 'Node' && s.from === 0);
    assert.deepEqual(nodeLanes.map((s) => s.object.name), ['n1', 'n2']);
  });
});
