import * as fs from 'node:fs';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Workspace } from '../src/workspace/workspace';
import { nodeWorker } from '../src/extension/worker/nodeTransport';
import { DocumentMirror, WorkerConnection, WorkerFailure } from '../src/extension/worker/workerClient';
import { fmt, median, timeMs } from './measure';

const FOLDER = 'file:///bench';
const URI = 'file:///bench/install.yaml';
const KEYSTROKES = 120;
const TYPING_INTERVAL_MS = 40;

/** A 35,000-line file: argo-cd's install.yaml from the corpus when present (never copied into the repo), else generated. */
function bigFile(sharedDir: string): { text: string; source: string } {
  const corpus = path.join(sharedDir, 'corpus', 'argo-cd', 'install.yaml');
  if (fs.existsSync(corpus)) return { text: fs.readFileSync(corpus, 'utf8'), source: 'corpus argo-cd/install.yaml' };
  const parts: string[] = [];
  for (let i = 0, count = 0; count < 35_000; i++) {
    const env = Array.from({ length: 20 }, (_, k) => `        - {name: V${k}, value: "${k}"}`);
    const doc = ['---', 'apiVersion: apps/v1', 'kind: Deployment', `metadata: {name: app-${i}}`, 'spec:', '  replicas: 2',
      `  selector: {matchLabels: {app: app-${i}}}`, '  template:', `    metadata: {labels: {app: app-${i}}}`, '    spec:', '      containers:',
      '      - name: c', '        image: nginx', '        env:', ...env];
    parts.push(...doc);
    count += doc.length;
  }
  return { text: parts.join('\n'), source: 'generated Deployments' };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The host's share of a keystroke in a 35,000-line file: it puts the new text in the mirror and
 * asks the analysis worker (as the code-action request after each keystroke does), which posts
 * the text; the parse and the analysis happen in the worker thread. Printed: the host's time per
 * edit, the longest event-loop stall of the host while typing, and, for comparison, what one
 * keystroke costs when the Workspace runs on the host (as before the workers).
 */
export async function workerBench(sharedDir: string): Promise<void> {
  console.log('\nEditor host while typing (analysis in a worker thread)');
  const { text, source } = bigFile(sharedDir);
  const lines = text.split('\n');
  const at = lines.findIndex((line, i) => i > lines.length / 2 && line.startsWith('---'));
  const mirror = new DocumentMirror();
  const worker = path.resolve(__dirname, '..', 'src', 'extension', 'worker', 'nodeWorker.js');
  const connection = new WorkerConnection(() => nodeWorker(worker, 'analysis'), mirror);

  let version = 1;
  mirror.set(FOLDER, URI, text, version);
  const firstMs = await (async () => {
    const start = performance.now();
    await connection.request('analyse', { folder: FOLDER, uri: URI, version });
    return performance.now() - start;
  })();

  const hostMs: number[] = [];
  const answers: Promise<string>[] = [];
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const head = lines.slice(0, at).join('\n');
  const tail = lines.slice(at).join('\n');
  let typed = '';
  delay.enable();
  for (let k = 0; k < KEYSTROKES; k++) {
    typed += 'abcdefghijklmnopqrstuvwxyz'[k % 26];
    // Concatenation makes a rope; posting it flattens it, as TextDocument.getText builds a flat string.
    const next = `${head}\n# ${typed}\n${tail}`;
    version++;
    const v = version;
    hostMs.push(timeMs(() => {
      mirror.set(FOLDER, URI, next, v);
      answers.push(connection.request('analyse', { folder: FOLDER, uri: URI, version: v }).then(
        () => 'answered', (e: unknown) => (e instanceof WorkerFailure ? e.kind : 'error')));
    }));
    await sleep(TYPING_INTERVAL_MS);
  }
  const lastKey = performance.now();
  const outcomes = await Promise.all(answers);
  const settleMs = performance.now() - lastKey;
  delay.disable();
  connection.terminate();

  // The machine's own noise: the same time with the host idle and the worker idle (a shared machine stalls a thread too).
  const idle = monitorEventLoopDelay({ resolution: 1 });
  idle.enable();
  await sleep(KEYSTROKES * TYPING_INTERVAL_MS);
  idle.disable();

  const count = (kind: string) => outcomes.filter((o) => o === kind).length;
  console.log(`  ${source}: ${lines.length.toLocaleString('en-US')} lines, ${(text.length / 2 ** 20).toFixed(1)} MiB; first analysis in the worker ${fmt(firstMs)}`);
  console.log(`  ${KEYSTROKES} keystrokes ${TYPING_INTERVAL_MS} ms apart, each posting the text with an analysis request:`);
  console.log(`    host time per edit (mirror + flattening and posting the text): median ${fmt(median(hostMs))}, max ${fmt(Math.max(...hostMs))} (target: the host never blocks > 50 ms)`);
  console.log(`    longest stall of the host's event loop while typing: ${fmt(delay.max / 1e6)} (monitorEventLoopDelay, includes GC); idle for as long, for scale: ${fmt(idle.max / 1e6)}`);
  console.log(`    worker: ${count('answered')} analyses answered, ${count('superseded')} superseded by a newer keystroke; last answer ${fmt(settleMs)} after the last keystroke`);

  // Before the workers: the same keystroke parsed and analysed on the host's thread.
  const workspace = new Workspace();
  workspace.setDocument(URI, text, 1);
  workspace.analyse(URI);
  const before: number[] = [];
  for (let k = 0; k < 5; k++) {
    const edited = `${head}\n# ${'x'.repeat(k + 1)}\n${tail}`;
    before.push(timeMs(() => {
      workspace.setDocument(URI, edited, k + 2);
      workspace.analyse(URI);
    }));
  }
  console.log(`    for comparison, one keystroke parsed and analysed on the host (as before): median ${fmt(median(before))}, max ${fmt(Math.max(...before))}`);
}

if (require.main === module) {
  const repoRoot = path.resolve(__dirname, '..', '..');
  void workerBench(process.env.KFS_SHARED_DIR ?? path.resolve(repoRoot, '..', 'shared'));
}
