import * as assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
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

  it('says so in one line, exit 2, when the output cannot be written (a full disk)', function () {
    if (!fs.existsSync('/dev/full')) this.skip();
    const full = fs.openSync('/dev/full', 'w');
    try {
      const child = spawnSync(process.execPath, [CLI, 'check', 'examples', '--format', 'json'], { cwd: path.join(__dirname, '..', '..', '..'), stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      assert.equal(child.status, 2);
      assert.equal(child.stderr, 'kube-failure-sim: cannot write the output: ENOSPC: no space left on device, write\n');
    } finally {
      fs.closeSync(full);
    }
  });
});

describe('kube-failure-sim reading endless input', () => {
  const endless = async (args: string[], feed: boolean) => {
    // Killed if it waits for good (a blocking open of a pipe), within the tests' 20 s: the test then fails instead of holding the run open.
    const child = spawn(process.execPath, [CLI, ...args], { cwd: path.join(__dirname, '..', '..', '..'), timeout: 15_000 });
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    if (feed) {
      // `yes 'a: 1' | check -`: more than the 64 MiB limit, for as long as the reader reads.
      const line = Buffer.from('a: 1\n'.repeat(13_000));
      const write = () => { while (child.stdin.writable && child.stdin.write(line)); };
      child.stdin.on('drain', write);
      child.stdin.on('error', () => undefined);
      write();
    }
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, stderr };
  };

  it('stops reading standard input at 64 MiB and says so', async () => {
    const { code, stderr } = await endless(['check', '-'], true);
    assert.equal(code, 2);
    assert.match(stderr, /standard input is larger than 64 MiB; not analysed/);
  });

  it('stops reading a device that never ends (/dev/zero, whose size is 0)', async function () {
    if (process.platform === 'win32') this.skip();
    const { code, stderr } = await endless(['check', '/dev/zero'], false);
    assert.equal(code, 2);
    assert.match(stderr, /\/dev\/zero is larger than 64 MiB; not analysed/);
  });

  it('does not wait for good on a named pipe that nobody writes to (check, and simulate --scenario)', async function () {
    if (process.platform === 'win32') this.skip();
    const fifo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-fifo-')), 'manifests.yaml');
    execFileSync('mkfifo', [fifo]);
    for (const args of [['check', fifo], ['simulate', '--scenario', fifo]]) {
      const { code, stderr } = await endless(args, false);
      assert.equal(code, 2);
      assert.match(stderr, /manifests\.yaml is a pipe and nothing was written to it/);
    }
  });
});
