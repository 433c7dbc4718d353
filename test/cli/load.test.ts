import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { collectingOutput } from '../../src/cli/output';
import { Workspace } from '../../src/workspace/workspace';

function run(...argv: string[]) {
  const output = collectingOutput();
  const code = main(argv, output);
  return { code, stdout: output.out, stderr: output.err };
}

const json = (...argv: string[]) => JSON.parse(run('load', '--format', 'json', ...argv).stdout);

describe('kube-failure-sim load (SEMANTICS.md 12)', () => {
  it('gives the table of SEMANTICS.md 12 for 100, 1,000 and 5,000 nodes with default settings', () => {
    for (const [nodes, lease, status] of [[100, 10, 0.33], [1000, 100, 3.33], [5000, 500, 16.67]]) {
      const report = json('--nodes', String(nodes));
      assert.deepEqual(Object.keys(report), ['nodes', 'leaseWritesPerSecond', 'statusWritesPerSecond', 'writesPerMinute', 'bytesPerSecond', 'timing']);
      assert.equal(report.nodes, nodes);
      assert.equal(report.leaseWritesPerSecond, lease);
      assert.equal(Math.round(report.statusWritesPerSecond * 100) / 100, status);
      assert.equal(Math.round(report.writesPerMinute), Math.round(60 * (lease + nodes / 300)));
    }
  });

  it('an explicit nodeStatusUpdateFrequency also sets the report frequency: 100 status writes/s on 1,000 nodes, about 1.5 MB/s', () => {
    const report = json('--nodes', '1000', '--set', 'kubelet.nodeStatusUpdateFrequency=10s');
    assert.equal(report.statusWritesPerSecond, 100);
    assert.equal(report.bytesPerSecond, 100 * 300 + 100 * 15_000);
    assert.equal(report.timing['kubelet.nodeStatusReportFrequency'].source, '= kubelet.nodeStatusUpdateFrequency, set explicitly in --set');
    assert.equal(json('--nodes', '1000', '--set', 'kubelet.nodeLeaseDurationSeconds=20').leaseWritesPerSecond, 200);
  });

  it('a report period shorter than the update period, or not a multiple of it, posts at the next update: the kubelet looks every update period', () => {
    assert.equal(json('--nodes', '100', '--set', 'kubelet.nodeStatusReportFrequency=1s').statusWritesPerSecond, 10);
    assert.equal(json('--nodes', '100', '--set', 'kubelet.nodeStatusReportFrequency=15s').statusWritesPerSecond, 5);
    // Rates of thirds without float noise.
    assert.deepEqual([json('--nodes', '5000').writesPerMinute, json('--nodes', '1000').statusWritesPerSecond], [31_000, 3.333333]);
  });

  it('takes the timing of a KubeletConfiguration among its inputs, with file:line as the source, and a profile', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-load-'));
    fs.writeFileSync(path.join(dir, 'kubelet.yaml'), 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusReportFrequency: 1m\n');
    const report = json('--nodes', '600', dir);
    assert.equal(report.statusWritesPerSecond, 10);
    assert.equal(report.timing['kubelet.nodeStatusReportFrequency'].source, `${path.join(dir, 'kubelet.yaml')}:3`);
    assert.equal(json('--nodes', '10', '--profile', 'fast').timing['kubelet.nodeStatusUpdateFrequency'].source, 'preset fast');
  });

  it('zero in a KubeletConfiguration means not set, as the kubelet\'s defaulting reads it (SetDefaults_KubeletConfiguration)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-load-'));
    const config = (fields: string) => {
      fs.writeFileSync(path.join(dir, 'kubelet.yaml'), `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n${fields}`);
      const { code, stdout, stderr } = run('load', '--format', 'json', '--nodes', '1000', dir);
      assert.equal(code, 0, stderr);
      return JSON.parse(stdout);
    };
    // The report frequency follows the explicitly set update frequency.
    assert.equal(config('nodeStatusUpdateFrequency: 10s\nnodeStatusReportFrequency: 0s\n').statusWritesPerSecond, 100);
    // Neither set: 10 s and 5 min, the defaults.
    const zero = config('nodeStatusUpdateFrequency: 0s\nnodeLeaseDurationSeconds: 0\n');
    assert.deepEqual([zero.statusWritesPerSecond, zero.leaseWritesPerSecond], [3.333333, 100]);
    assert.match(zero.timing['kubelet.nodeStatusUpdateFrequency'].source, /^Kubernetes 1\.\d+ default$/);
    // A value that is not a duration is reported once.
    const workspace = new Workspace();
    workspace.setDocument('kubelet.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: abc\n');
    assert.equal(workspace.analyse('kubelet.yaml').findings.filter((f) => f.ruleId === 'KFS092').length, 1);
  });

  it('says which document it skips and refuses a configuration the kubelet refuses, as simulate does: no load from defaults in silence', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-load-'));
    fs.writeFileSync(path.join(dir, 'broken.yaml'), 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: [4s\n');
    const skipped = run('load', '--nodes', '5', path.join(dir, 'broken.yaml'));
    assert.equal(skipped.code, 0);
    assert.match(skipped.stderr, /broken\.yaml:3:\d+ YAML syntax error: .*\(document skipped\)/);
    fs.writeFileSync(path.join(dir, 'types.yaml'), 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeLeaseDurationSeconds: "40"\n');
    const refused = run('load', '--nodes', '5', path.join(dir, 'types.yaml'));
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    // A workload the API server would reject changes no heartbeat: the load is computed.
    fs.writeFileSync(path.join(dir, 'web.yaml'), 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: Web_1}\nspec:\n  selector: {matchLabels: {app: w}}\n  template:\n    metadata: {labels: {app: w}}\n    spec: {containers: [{name: c, image: app}]}\n');
    assert.equal(run('load', '--nodes', '5', path.join(dir, 'web.yaml')).code, 0);
    assert.match(refused.stderr, /types\.yaml:3:\d+ error KFS092 nodeLeaseDurationSeconds must be a whole number; it is the string "40"\.\nkube-failure-sim: the kubelet would refuse these settings; fix them first \(no load computed\)\.\n$/);
  });

  it('prints every number as text, and rejects a missing or bad --nodes', () => {
    const { code, stdout } = run('load', '--nodes', '1000', '--k8s-version', '1.36');
    assert.equal(code, 0);
    assert.match(stdout, /Heartbeat writes of 1,000 nodes/);
    assert.match(stdout, /lease renewals +100\/s/);
    assert.match(stdout, /status updates +3\.33\/s/);
    assert.match(stdout, /6,200 writes\/min, 80 KB\/s to etcd/);
    assert.match(stdout, /kubelet\.nodeStatusReportFrequency = 5m \(Kubernetes 1\.36 default\)/);
    // One node: singular, and a rate below 0.01/s is not rounded to 0; the simulator's own parameters are not a release's defaults.
    const one = run('load', '--nodes', '1').stdout;
    assert.match(one, /^Heartbeat writes of 1 node \(/);
    assert.match(one, /status updates +0\.00333\/s/);
    assert.match(one, /sim\.nodeObjectBytes = 15000 \(simulator default\)/);
    // A knob the heartbeats do not follow is taken, and said to change nothing.
    const unused = run('load', '--nodes', '3', '--set', 'kcm.node-monitor-grace-period=20s', '--set', 'kubelet.nodeStatusUpdateFrequency=4s');
    assert.equal(unused.code, 0);
    assert.match(unused.stderr, /^kube-failure-sim: note: --set kcm\.node-monitor-grace-period does not change the heartbeat load \(it follows kubelet\.nodeStatusUpdateFrequency, /);
    assert.doesNotMatch(unused.stderr, /nodeStatusUpdateFrequency does not/);
    for (const bad of [[], ['--nodes', 'many'], ['--nodes', '0'], ['--nodes', '1e3'], ['--nodes', '0x10']]) {
      const result = run('load', ...bad);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /load needs --nodes N/);
    }
  });
});
