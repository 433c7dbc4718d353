import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadAll } from 'js-yaml';
import * as jsYaml4 from 'js-yaml-4';
import { ManifestParser } from '../src/manifest/parseFile';
import { fmt, interleaved, median } from './measure';

export function parserBench(sharedDir: string): void {
  console.log('Parser');
  const file = path.join(sharedDir, 'corpus', 'argo-cd', 'install.yaml');
  if (!fs.existsSync(file)) {
    console.log(`  skipped: ${file} is absent`);
  } else {
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n').length;
    const samples = interleaved({
      ours: () => new ManifestParser().parse(text),
      loadAll5: () => loadAll(text),
      loadAll4: () => jsYaml4.loadAll(text),
    }, 25);
    const ours = median(samples.ours);
    const v5 = median(samples.loadAll5);
    const v4 = median(samples.loadAll4);
    const ratios = samples.ours.map((t, i) => t / samples.loadAll5[i]);
    console.log(`  argo-cd/install.yaml (${lines.toLocaleString('en-US')} lines, ${(text.length / 1e6).toFixed(1)} MB), median of 25 interleaved runs:`);
    console.log(`    parse + source map (ours, js-yaml 5 events)   ${fmt(ours)}`);
    console.log(`    js-yaml 5 loadAll                             ${fmt(v5)}`);
    console.log(`    js-yaml 4.1 loadAll                           ${fmt(v4)}`);
    console.log(`    ratio ours / js-yaml 5 loadAll: ${median(ratios).toFixed(2)}x (target <= 1.5x)`);
  }

  // A 1,000-line file of 48 Deployments; one document is edited, the others come from the cache.
  const documents = Array.from({ length: 48 }, (_, i) => deployment(i));
  const original = documents.join('---\n');
  const editedDocuments = [...documents];
  editedDocuments[20] = editedDocuments[20].replace('replicas: 3', 'replicas: 4');
  const edited = editedDocuments.join('---\n');
  const parser = new ManifestParser();
  let flip = false;
  const samples = interleaved({
    incremental: () => {
      flip = !flip;
      parser.parse(flip ? edited : original);
    },
    full: () => new ManifestParser().parse(edited),
  }, 101);
  console.log(`  re-parse after editing one document of a ${original.split('\n').length.toLocaleString('en-US')}-line file: ${fmt(median(samples.incremental))} (full parse ${fmt(median(samples.full))})`);
}

/** The Deployment of a generated 1,000-line file (48 of them), the editor benchmarks' document. */
export function deployment(i: number): string {
  const lines = [
    'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', `  name: service-${i}`, '  namespace: shop', '  labels:', `    app: service-${i}`,
    'spec:', '  replicas: 3', '  selector:', '    matchLabels:', `      app: service-${i}`, '  template:', '    metadata:', '      labels:',
    `        app: service-${i}`, '    spec:', '      containers:', '        - name: app', `          image: registry.example.com/service-${i}:1.0`,
  ];
  return `${lines.join('\n')}\n`;
}
