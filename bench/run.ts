import * as path from 'node:path';
import { editorBench } from './editorBench';
import { parserBench } from './parserBench';
import { simBench } from './simBench';

/** `npm run bench`: prints figures; nothing here passes or fails. */
const repoRoot = path.resolve(__dirname, '..', '..');
const sharedDir = process.env.KFS_SHARED_DIR ?? path.resolve(repoRoot, '..', 'shared');

console.log(`kube-failure-sim benchmarks (Node ${process.version})\n`);
parserBench(sharedDir);
editorBench(sharedDir);
simBench();
