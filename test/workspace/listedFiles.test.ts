/**
 * The files a scenario's `manifests` stand for in the editor: found as the CLI's collectFiles
 * finds them on the same tree (src/cli/files.ts), over a real folder.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { collectFiles } from '../../src/cli/files';
import { listFiles, type ListingFs } from '../../src/workspace/listedFiles';

/** Node's file system behind the editor's interface (stat follows links; readdir tells them apart). */
const NODE_FS: ListingFs = {
  async kind(address) {
    try {
      return fs.statSync(address).isDirectory() ? 'directory' : 'file';
    } catch {
      return undefined;
    }
  },
  async children(directory) {
    return fs.readdirSync(directory, { withFileTypes: true }).map((entry) => {
      const full = path.join(directory, entry.name);
      const target = entry.isSymbolicLink() ? fs.statSync(full, { throwIfNoEntry: false }) : undefined;
      const isDirectory = target ? target.isDirectory() : entry.isDirectory();
      const isFile = target ? target.isFile() : entry.isFile();
      return { name: entry.name, kind: isDirectory ? 'directory' : isFile ? 'file' : 'other', symbolicLink: entry.isSymbolicLink() };
    });
  },
  join: (directory, name) => path.join(directory, name),
};

describe('the files a scenario lists, in the editor', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-listed-'));
    const write = (name: string) => {
      fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      fs.writeFileSync(path.join(root, name), 'kind: List\n');
    };
    for (const name of ['apps/web.yaml', 'apps/B.YML', 'apps/a/db.yml', 'apps/.hidden/x.yaml', 'apps/node_modules/y.yaml', 'apps/notes.txt', 'apps/.dot.yaml', 'cluster/nodes.yaml', 'extra.json']) write(name);
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('walks folders in name order, skipping hidden entries, node_modules and other files, and takes a named file whatever its name', async () => {
    const given = ['apps', 'extra.json', 'apps/web.yaml', 'cluster'].map((p) => path.join(root, p));
    const listed = await listFiles(given, NODE_FS);
    assert.deepEqual(listed, { files: ['apps/B.YML', 'apps/a/db.yml', 'apps/web.yaml', 'extra.json', 'cluster/nodes.yaml'].map((p) => path.join(root, p)) });
    // The same files, in the same order, as simulate reads from the command line.
    assert.deepEqual(collectFiles(given, root).files.map((f) => f.absolutePath), (listed as { files: string[] }).files);
  });

  it('names the first path with nothing at it', async () => {
    assert.deepEqual(await listFiles([path.join(root, 'apps'), path.join(root, 'gone.yaml'), path.join(root, 'also-gone')], NODE_FS), { missing: path.join(root, 'gone.yaml') });
  });
});
