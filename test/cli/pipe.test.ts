import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';

const CLI = path.join(__dirname, '..', '..', 'src', 'cli', 'cli.js');

describe('kube-failure-sim in a pipe', () => {
  it('stops quietly when the reader has closed the pipe (| head)', async () => {
    const child = spawn(process.execPath, [CLI, 'simulate', 'examples'], { cwd: path.join(__dirname, '..', '..', '..') });
    // Closed before the first write, so that every write meets a closed pipe (EPIPE).
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });
});
