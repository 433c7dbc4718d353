import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Workspace } from '../src/workspace/workspace';
import { defaultChoices } from '../src/workspace/simulationChoices';
import { simulate } from '../src/sim/simulate';
import { largeInput } from './largeCluster';
import type { LargeRunResult } from './largeRun';
import { fmt, interleaved, median } from './measure';

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        resources: {requests: {cpu: 250m, memory: 128Mi}}
        readinessProbe: {httpGet: {path: /, port: 80}}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {selector: {app: web}, ports: [{port: 80}]}
`;

const MiB = 2 ** 20;
const repoRoot = path.resolve(__dirname, '..', '..');
const count = (n: number) => n.toLocaleString('en-US');

/**
 * Issue 10, item 8 ("Speed"): the editor's one-workload default scenario; the 5,000-node,
 * 150,000-pod one-hour outage of zone a in-process and as a fresh CLI process; and how time and
 * memory grow with the cluster. Each large figure comes from a process of its own, so that its
 * peak RSS is the simulation's.
 */
export function simBench(): void {
  console.log('\nSimulator');
  const workspace = new Workspace();
  workspace.setDocument('web.yaml', WEB);
  const scenario = workspace.scenario(defaultChoices());
  const small = interleaved({ run: () => simulate(scenario) }, 301, 30).run;
  const result = simulate(scenario);
  console.log('  the editor\'s default scenario of one workload (Deployment of 3 replicas behind a Service, default 6-node cluster, power-off, 20 simulated minutes):');
  console.log(`    median ${fmt(median(small))} per run of 301 (target <= 0.3 ms); ${result.executedTasks} tasks, ${result.events.length} events`);

  const large = largeRun(5000, 7);
  console.log(`  ${count(large.nodes)} nodes in 3 zones, ${count(large.pods)} pods (${count(large.services)} Services, ${count(large.podsWithClaims)} pods with a PVC), zone-outage of zone a (${count(large.failedNodes)} nodes), 1 simulated hour:`);
  console.log(`    in-process: median ${fmt(large.medianMs)}, min ${fmt(Math.min(...large.runsMs))} of ${large.runsMs.length} runs (target <= 0.5 s); peak RSS with the input built in the same process: ${(large.firstRunPeakRssBytes / MiB).toFixed(0)} MiB after the first run (target <= 512 MiB), ${(large.peakRssBytes / MiB).toFixed(0)} MiB after all ${large.runsMs.length} (the heap keeps what earlier runs grew); ${count(large.tasks)} tasks, ${count(large.events)} events, ${count(large.states)} state intervals`);
  const cli = cliRuns(5000, 5);
  console.log(`    fresh process \`simulate --failure zone-outage --target zone/zone-a --duration 1h --format json -o /dev/null\`: median ${fmt(median(cli.runsMs))}, min ${fmt(Math.min(...cli.runsMs))} of ${cli.runsMs.length} (target <= 1 s); peak RSS ${(cli.peakRssBytes / MiB).toFixed(0)} MiB; JSON report ${(cli.outputBytes / MiB).toFixed(0)} MiB`);

  console.log('  growth (30 pods per node, same mix and failure, 1 simulated hour; in-process, median of 3 runs (of 7 at 5,000 nodes), own process each):');
  console.log('    nodes    pods     median    per node   peak RSS   events    tasks');
  for (const nodes of [500, 1000, 2000, 5000, 10_000]) {
    const r = nodes === 5000 ? large : largeRun(nodes, 3);
    console.log(`    ${count(r.nodes).padStart(6)} ${count(r.pods).padStart(8)} ${fmt(r.medianMs).padStart(9)} ${`${((r.medianMs * 1000) / r.nodes).toFixed(0)} µs`.padStart(10)} ${`${(r.peakRssBytes / MiB).toFixed(0)} MiB`.padStart(10)} ${count(r.events).padStart(9)} ${count(r.tasks).padStart(8)}`);
  }
}

function largeRun(nodes: number, runs: number): LargeRunResult {
  const child = spawnSync(process.execPath, ['--expose-gc', path.join(__dirname, 'largeRun.js'), String(nodes), String(runs)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`largeRun ${nodes} failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as LargeRunResult;
}

/** The CLI as a user runs it on the generated files, from a fresh process each time (bundle built first). */
function cliRuns(nodes: number, runs: number): { runsMs: number[]; peakRssBytes: number; outputBytes: number } {
  const build = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs')], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-bench-'));
  try {
    const input = largeInput(nodes);
    fs.writeFileSync(path.join(dir, 'nodes.yaml'), input.nodesYaml);
    const files = input.workloadFiles.map((text, i) => {
      const file = path.join(dir, `workloads-${i}.yaml`);
      fs.writeFileSync(file, text);
      return file;
    });
    const out = path.join(dir, 'report.json');
    const args = ['-r', path.join(__dirname, 'exitRss.js'), path.join(repoRoot, 'dist', 'cli.js'), 'simulate', ...files,
      '--failure', 'zone-outage', '--target', 'zone/zone-a', '--duration', '1h', '--cluster', path.join(dir, 'nodes.yaml'), '--format', 'json', '-o'];
    const runsMs: number[] = [];
    let peakRssBytes = 0;
    // The first run writes the report once to measure it; the timed runs write to /dev/null as the issue states.
    for (let i = 0; i <= runs; i++) {
      const start = process.hrtime.bigint();
      const child = spawnSync(process.execPath, [...args, i === 0 ? out : '/dev/null'], { cwd: dir, encoding: 'utf8' });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (child.status !== 0) throw new Error(`simulate failed (${child.status}): ${child.stderr}`);
      const rss = /kfs-bench-peak-rss (\d+)/.exec(child.stderr);
      if (i > 0) {
        runsMs.push(ms);
        peakRssBytes = Math.max(peakRssBytes, Number(rss?.[1] ?? 0));
      }
    }
    return { runsMs, peakRssBytes, outputBytes: fs.statSync(out).size };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
