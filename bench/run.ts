import * as path from 'node:path';
import { editorBench } from './editorBench';
import { hostileBench } from './hostileBench';
import { parserBench } from './parserBench';
import { simBench } from './simBench';
import { workerBench } from './workerBench';

/** `npm run bench`: prints figures; nothing here passes or fails. */
const repoRoot = path.resolve(__dirname, '..', '..');
const sharedDir = process.env.KFS_SHARED_DIR ?? path.resolve(repoRoot, '..', 'shared');

console.log(`kube-failure-sim benchmarks (Node ${process.version})\n`);
void (async () => {
  // First, on a fresh heap: it measures how long the host's thread stalls.
  await workerBench(sharedDir);
  parserBench(sharedDir);
  editorBench(sharedDir);
  simBench();
  hostileBench();
})();
