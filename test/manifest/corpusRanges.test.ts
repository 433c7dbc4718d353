import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { load } from 'js-yaml';
import { parseManifestText } from '../../src/manifest/parseFile';
import type { PathSegment } from '../../src/manifest/path';
import { kubernetesSchema } from '../../src/manifest/yaml';
import { CORPUS_DIR, describeWithCorpus } from '../support/shared';

function valueAt(value: unknown, path: PathSegment[]): unknown {
  return path.reduce<unknown>((v, segment) => (v === null || v === undefined ? undefined : (v as Record<string | number, unknown>)[segment]), value);
}

/** What js-yaml makes of a piece of source text on its own; empty text is YAML's null. */
function loadAlone(text: string): unknown {
  return text.trim() === '' ? null : load(text, { schema: kubernetesSchema });
}

describeWithCorpus('source map over ../shared/corpus', (files) => {
  it('maps every scalar path to the exact text of its key and value', function () {
    this.timeout(120_000);
    let paths = 0;
    let documents = 0;
    const failures: string[] = [];
    for (const file of files) {
      const parsed = parseManifestText(fs.readFileSync(file, 'utf8'));
      for (const document of parsed.documents) {
        documents++;
        for (const { path: scalarPath } of document.sourceMap.scalars()) {
          paths++;
          const where = `${path.relative(CORPUS_DIR, file)} ${JSON.stringify(scalarPath)}`;
          const value = document.sourceMap.valueOffsets(scalarPath)!;
          const text = parsed.text.slice(value.start, value.end);
          try {
            assert.deepEqual(loadAlone(text), valueAt(document.value, scalarPath) ?? null);
          } catch {
            failures.push(`${where}: value text ${JSON.stringify(text)}`);
          }
          const key = document.sourceMap.keyOffsets(scalarPath);
          if (key) {
            const keyText = parsed.text.slice(key.start, key.end);
            if (String(loadAlone(keyText)) !== String(scalarPath[scalarPath.length - 1])) failures.push(`${where}: key text ${JSON.stringify(keyText)}`);
          }
        }
      }
    }
    console.log(`\n    source map property: ${paths.toLocaleString('en-US')} scalar paths in ${documents.toLocaleString('en-US')} documents of ${files.length} files`);
    assert.deepEqual(failures.slice(0, 20), []);
    assert.ok(paths > 50_000, `expected the corpus to give more than 50,000 paths, got ${paths}`);
  });
});
