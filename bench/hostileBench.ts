/** Hostile input (issue 9): each case through `check` and `simulate` in a child process: exit code, wall time, peak memory. Figures only. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CASES, MEMORY_LIMIT_KIB, TIME_LIMIT_MS, deployments, nodes, runCli, type Run } from '../test/support/hostileInputs';

const figures = (run: Run) => `exit ${run.code}, ${run.ms} ms, ${Math.round(run.maxRssKiB / 1024)} MiB`;

export function hostileBench(): void {
  console.log(`Hostile input (node out/test/support/measuredCli.js check|simulate FILE; limits ${TIME_LIMIT_MS / 1000} s and ${MEMORY_LIMIT_KIB / 1024} MiB)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-hostile-bench-'));
  try {
    CASES.forEach((c, i) => {
      const file = `case-${i}.yaml`;
      fs.writeFileSync(path.join(dir, file), c.file);
      console.log(`  ${c.name}: check ${figures(runCli(dir, ['check', file]))}; simulate ${figures(runCli(dir, ['simulate', file, '--duration', '10m']))}`);
    });
    fs.writeFileSync(path.join(dir, 'nodes.yaml'), nodes(5000));
    fs.writeFileSync(path.join(dir, 'one.yaml'), deployments(1));
    const unknownNode = runCli(dir, ['simulate', 'one.yaml', '--cluster', 'nodes.yaml', '--target', 'node/node-4999x']);
    console.log(`  --target node/node-4999x among 5,000 nodes: ${figures(unknownNode)}, ${unknownNode.stderr.length} characters of error`);
    fs.writeFileSync(path.join(dir, 'many.yaml'), deployments(3000));
    const unknownWorkload = runCli(dir, ['simulate', 'many.yaml', '--target', 'Deployment/app-29999']);
    console.log(`  --target Deployment/app-29999 among 3,000 workloads: ${figures(unknownWorkload)}, ${unknownWorkload.stderr.length} characters of error`);
    fs.writeFileSync(path.join(dir, 'fifty.yaml'), deployments(50));
    for (const runs of [1, 100, 1000]) console.log(`  simulate --runs ${runs} (50 Deployments): ${figures(runCli(dir, ['simulate', 'fifty.yaml', '--runs', String(runs), '--format', 'json']))}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
