import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository root (the compiled tests run from out/test/...). */
export const REPO_ROOT = findRepoRoot(__dirname);

/** ../shared next to the clone: real-world manifests and recordings. Absent on a fresh clone. */
export const SHARED_DIR = process.env.KFS_SHARED_DIR ?? path.resolve(REPO_ROOT, '..', 'shared');
export const CORPUS_DIR = path.join(SHARED_DIR, 'corpus');

/** The clone: the folder with package-lock.json (out/ has a copy of package.json, for the version the CLI prints). */
function findRepoRoot(start: string): string {
  let dir = start;
  while (!fs.existsSync(path.join(dir, 'package-lock.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package-lock.json above ${start}`);
    dir = parent;
  }
  return dir;
}

/** Every .yaml/.yml file under a directory, sorted. */
export function yamlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return yamlFiles(full);
      return /\.ya?ml$/i.test(entry.name) ? [full] : [];
    });
}

let absenceReported = false;

/** A suite over ../shared/corpus that skips, with one line saying why, when the corpus is absent. */
export function describeWithCorpus(title: string, body: (files: string[]) => void): void {
  if (!fs.existsSync(CORPUS_DIR)) {
    if (!absenceReported) console.log(`Skipping the tests over real-world manifests: ${CORPUS_DIR} is absent (CI has it).`);
    absenceReported = true;
    describe(title, () => {
      it(`skipped: ${CORPUS_DIR} is absent`, function () {
        this.skip();
      });
    });
    return;
  }
  describe(title, () => body(yamlFiles(CORPUS_DIR)));
}
