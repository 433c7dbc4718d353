import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CASES, MEMORY_LIMIT_KIB, TIME_LIMIT_MS, deployments, nodes, runCli, type Run } from '../support/hostileInputs';

function withinBounds(run: Run, what: string): void {
  assert.ok(run.code !== null && run.code >= 0 && run.code <= 2, `${what}: exit code ${run.code}\n${run.stderr.slice(0, 2000)}`);
  assert.ok(!/\n\s+at .+\(.+:\d+:\d+\)/.test(run.stderr), `${what}: a stack trace\n${run.stderr.slice(0, 2000)}`);
  assert.ok(run.ms <= TIME_LIMIT_MS, `${what}: ${run.ms} ms`);
  assert.ok(run.maxRssKiB <= MEMORY_LIMIT_KIB, `${what}: ${Math.round(run.maxRssKiB / 1024)} MiB`);
}

describe('hostile input through check and simulate (5 s and 512 MiB each, measured on a child process)', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-hostile-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  CASES.forEach((c, i) => {
    it(c.name, () => {
      const file = `case-${i}.yaml`;
      fs.writeFileSync(path.join(dir, file), c.file);
      const check = runCli(dir, ['check', file]);
      withinBounds(check, `check of ${c.name}`);
      assert.equal(check.code, c.check.code, check.stdout + check.stderr);
      assert.match(check.stdout + check.stderr, c.check.output);
      const simulate = runCli(dir, ['simulate', file, '--duration', '10m']);
      withinBounds(simulate, `simulate of ${c.name}`);
      assert.equal(simulate.code, c.simulate.code, simulate.stdout.slice(0, 2000) + simulate.stderr);
      assert.match(simulate.stdout + simulate.stderr, c.simulate.output);
      if (c.simulate.absent) assert.doesNotMatch(simulate.stdout + simulate.stderr, c.simulate.absent);
    });
  });

  it('a week of probes failing every second on 600 pods: refused at the trace\'s event bound, within the time and memory bounds', () => {
    const probe = '{httpGet: {path: /, port: 80}, periodSeconds: 1, failureThreshold: 1, timeoutSeconds: 1}';
    fs.writeFileSync(path.join(dir, 'probes.yaml'), `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: live}\nspec:\n  replicas: 600\n  selector: {matchLabels: {app: live}}\n  template:\n    metadata: {labels: {app: live}}\n    spec:\n      containers:\n      - {name: c, image: x, resources: {requests: {cpu: 1m, memory: 1Mi}}, livenessProbe: ${probe}, readinessProbe: ${probe}}\n`);
    const run = runCli(dir, ['simulate', 'probes.yaml', '--failure', 'disk-failure', '--target', 'zone/zone-a,zone/zone-b', '--duration', '168h', '--format', 'json', '-o', 'out.json']);
    withinBounds(run, 'probe storm');
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^kube-failure-sim: The run writes more than 1,000,000 events by \d+h\d+m[\d.]+s after the failure; the simulator stops there\. Simulate less time \(--duration\) or fewer pods\.\n$/);
    assert.ok(!fs.existsSync(path.join(dir, 'out.json')), 'no partial report');
  });

  it('an unknown node among 5,000 gets a short error with the closest names', () => {
    fs.writeFileSync(path.join(dir, 'nodes.yaml'), nodes(5000));
    fs.writeFileSync(path.join(dir, 'one.yaml'), deployments(1));
    const run = runCli(dir, ['simulate', 'one.yaml', '--cluster', 'nodes.yaml', '--target', 'node/node-4999x']);
    withinBounds(run, 'unknown node');
    assert.equal(run.code, 2);
    assert.ok(run.stderr.length < 600, `${run.stderr.length} characters`);
    assert.match(run.stderr, /--target node\/node-4999x: no such node in the cluster \(nodes\.yaml\); did you mean node-4999\? Nodes: node-4999, .*\(and 4,990 more\)\.\n$/);
  });

  it('an unknown workload among 3,000 gets a short error', () => {
    fs.writeFileSync(path.join(dir, 'many-deployments.yaml'), deployments(3000));
    const run = runCli(dir, ['simulate', 'many-deployments.yaml', '--target', 'Deployment/app-29999']);
    withinBounds(run, 'unknown workload');
    assert.equal(run.code, 2);
    assert.ok(run.stderr.length < 600, `${run.stderr.length} characters`);
    assert.match(run.stderr, /no such workload in the input; did you mean Deployment\/app-2999\? Workloads: Deployment\/app-2999, .*\(and 2,990 more\)\.\n$/);
  });

  it('check of 60 Deployments of 2,000 replicas in a 13 KB file simulates the first 10,000 pods and says where it stopped', () => {
    fs.writeFileSync(path.join(dir, 'many.yaml'), deployments(60).replace(/replicas: 1\n/g, 'replicas: 2000\n'));
    const run = runCli(dir, ['check', 'many.yaml']);
    withinBounds(run, 'check of 120,000 pods');
    assert.match(run.stdout, /many\.yaml:\d+:\d+ info KFS093 This file asks for more than 10,000 pods; node-failure findings are simulated for its workloads up to that many pods, from here on they are not\./);
  });

  it('the time before the failure (--at) counts towards the pod-hours and the 7 days', () => {
    fs.writeFileSync(path.join(dir, 'big.yaml'), deployments(1).replace('replicas: 1', 'replicas: 20000'));
    const early = runCli(dir, ['simulate', 'big.yaml', '--duration', '1m', '--at', '48h']);
    withinBounds(early, '--at 48h');
    assert.equal(early.code, 2);
    assert.match(early.stderr, /20,000 pods for 48\.017 hours \(48h before the failure and 1m after it\) is more than the simulator runs at once/);
    fs.writeFileSync(path.join(dir, 'one.yaml'), deployments(1));
    const long = runCli(dir, ['simulate', 'one.yaml', '--duration', '168h', '--at', '1h']);
    assert.equal(long.code, 2);
    assert.match(long.stderr, /the run spans 1h before the failure and 168h after it: longer than the 7 days the simulator accepts/);
  });

  it('more runs than the stated maximum are refused with the limit', () => {
    fs.writeFileSync(path.join(dir, 'one.yaml'), deployments(1));
    const run = runCli(dir, ['simulate', 'one.yaml', '--runs', '1001']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--runs must be a whole number from 1 to 1000/);
  });

  it('memory of --runs does not grow with the number of runs: 1,000 runs fit the heap one run needs', () => {
    // One run's trace is ~75 KB of JSON; kept for 1,000 runs it would overflow a 32 MiB heap many times.
    fs.writeFileSync(path.join(dir, 'fifty.yaml'), deployments(50));
    const capped = (runs: number) => runCli(dir, ['simulate', 'fifty.yaml', '--runs', String(runs), '--format', 'json'], ['--max-old-space-size=32']);
    const one = capped(1);
    assert.equal(one.code, 0, one.stderr);
    const many = capped(1000);
    assert.equal(many.code, 0, many.stderr.slice(0, 2000));
    const report = JSON.parse(many.stdout);
    assert.equal(report.scenario.runs, 1000);
    assert.equal(Object.values(report.summary.workloads[0].outcomes as Record<string, number>).reduce((a, b) => a + b, 0), 1000);
  });
});
