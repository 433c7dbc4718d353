/**
 * Editor budgets (issue 8): a full analysis against a bare YAML load, re-analysis after one
 * keystroke, and a hover on a warm analysis. Figures only; nothing here passes or fails.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadAll } from 'js-yaml';
import { formatCount } from '../src/manifest/formatCount';
import { Workspace } from '../src/workspace/workspace';
import { fmt, interleaved, median, timeMs } from './measure';
import { largeInput } from './largeCluster';
import { deployment } from './parserBench';

export function editorBench(sharedDir: string): void {
  console.log('Editor');
  fullAnalysisRatio(sharedDir);
  keystroke();
  manyWorkloads();
}

/** (d) What `check` does with a large repository: every workload's default scenario, each workload behind a Service of its own. */
function manyWorkloads(): void {
  const { workloadFiles, deployments, statefulSets } = largeInput(5000);
  const workspace = new Workspace();
  const ms = timeMs(() => {
    workloadFiles.forEach((text, i) => workspace.setDocument(`workloads-${i}.yaml`, text));
    workloadFiles.forEach((_, i) => workspace.analyse(`workloads-${i}.yaml`));
  });
  console.log(`  full analysis of ${formatCount(deployments + statefulSets + 1)} workloads in ${workloadFiles.length} files, each but one behind a Service of its own (the 5,000-node benchmark's workload files): ${fmt(ms)}, one run`);
}

/** (a) Workspace analysis (parse, model, every rule, each workload's default scenario) of argo-cd's install.yaml against js-yaml 5 loadAll. */
function fullAnalysisRatio(sharedDir: string): void {
  const file = path.join(sharedDir, 'corpus', 'argo-cd', 'install.yaml');
  if (!fs.existsSync(file)) {
    console.log(`  full analysis / loadAll: skipped, ${file} is absent`);
    return;
  }
  const text = fs.readFileSync(file, 'utf8');
  const rounds = 11;
  const samples = interleaved({
    analyse: () => {
      // A fresh workspace: nothing parsed or simulated before.
      const workspace = new Workspace();
      workspace.setDocument('install.yaml', text);
      return workspace.analyse('install.yaml');
    },
    loadAll: () => loadAll(text),
  }, rounds, 2);
  const ratios = samples.analyse.map((t, i) => t / samples.loadAll[i]);
  console.log(`  argo-cd/install.yaml, median of ${rounds} interleaved runs: full analysis ${fmt(median(samples.analyse))}, js-yaml 5 loadAll ${fmt(median(samples.loadAll))}`);
  console.log(`    ratio full analysis / loadAll: ${median(ratios).toFixed(2)}x (target <= 2x)`);
}

/** (b) and (c): a 1,000-line file of 48 Deployments open in the editor. */
function keystroke(): void {
  const documents = Array.from({ length: 48 }, (_, i) => deployment(i));
  const original = documents.join('---\n');
  const lines = original.split('\n').length;
  const workspace = new Workspace();
  workspace.setDocument('main.yaml', original);
  workspace.analyse('main.yaml');
  // Typing in one image tag: every keystroke is a text never seen before (its workload is simulated again).
  const tag = 'registry.example.com/service-20:1.0';
  const at = original.indexOf(tag) + tag.length;
  const keystrokes = 101;
  const times: number[] = [];
  for (let k = 1; k <= keystrokes + 3; k++) {
    const text = `${original.slice(0, at)}${'x'.repeat(k)}${original.slice(at)}`;
    const ms = timeMs(() => {
      workspace.setDocument('main.yaml', text);
      workspace.analyse('main.yaml');
    });
    if (k > 3) times.push(ms);
  }
  console.log(`  re-analysis after one keystroke in a ${lines.toLocaleString('en-US')}-line file (setDocument + analyse, ${keystrokes} keystrokes): median ${fmt(median(times))}, max ${fmt(Math.max(...times))} (target <= 10 ms)`);

  // A hover on `replicas` of the edited Deployment, the analysis warm.
  const line = workspace.read('main.yaml').parsed.text.split('\n').findIndex((l, i, all) => l === '  replicas: 3' && all[i - 5] === '  name: service-20');
  const position = { line, character: 4 };
  if (!workspace.hover('main.yaml', position)) throw new Error('no hover on replicas');
  const hovers = Array.from({ length: 203 }, () => timeMs(() => workspace.hover('main.yaml', position))).slice(3);
  console.log(`  hover on a warm analysis (${hovers.length} hovers): median ${fmt(median(hovers))}, max ${fmt(Math.max(...hovers))} (target <= 5 ms)`);
}
