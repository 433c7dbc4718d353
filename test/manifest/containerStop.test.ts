import * as assert from 'node:assert/strict';
import { containerStopMs, preStopSeconds, shellScriptAsPid1 } from '../../src/manifest/model/containerStop';
import type { Container } from '../../src/manifest/model/types';

const container = (fields: Partial<Container>): Container => ({
  name: 'c', image: 'app', command: [], args: [], ports: [], requests: {}, limits: {}, volumeMounts: [], ...fields,
} as Container);

describe('how a container stops (SEMANTICS.md 10)', () => {
  it('knows how long a preStop hook sleeps: a sleep handler, or sleep N in an exec hook', () => {
    assert.equal(preStopSeconds({ handler: 'sleep', command: [], sleepSeconds: 5 }), 5);
    assert.equal(preStopSeconds({ handler: 'exec', command: ['sh', '-c', 'sleep 15 && nginx -s quit'] }), 15);
    assert.equal(preStopSeconds({ handler: 'exec', command: ['/bin/sleep', '20'] }), 0, 'not the word sleep: a path');
    assert.equal(preStopSeconds({ handler: 'exec', command: ['sleep', '20'] }), 20);
    assert.equal(preStopSeconds({ handler: 'httpGet', command: [] }), 0);
  });

  it('finds a shell as PID 1: sh -c or -ec with a script that does not exec its program', () => {
    assert.equal(shellScriptAsPid1(container({ command: ['sh', '-c', 'cd /app && python app.py'] })), 'cd /app && python app.py');
    assert.equal(shellScriptAsPid1(container({ command: ['/bin/bash', '-ec'], args: ['python app.py > /var/log/app.log'] })), 'python app.py > /var/log/app.log', 'bash forks a command with a redirection');
    assert.equal(shellScriptAsPid1(container({ command: ['sh', '-c', 'exec python app.py'] })), undefined);
    // A script that prepares, then ends by exec-ing its program (cockroachdb's StatefulSet in kubernetes/examples).
    assert.equal(shellScriptAsPid1(container({ command: ['/bin/bash', '-ecx', 'CRARGS=(start)\nif [ -n "$X" ]; then CRARGS+=(--join); fi\nexec /cockroach/cockroach ${CRARGS[*]}\n# done\n'] })), undefined);
    assert.equal(shellScriptAsPid1(container({ command: ['sh', '-c', 'cd /app && exec ./server'] })), undefined);
    assert.equal(shellScriptAsPid1(container({ command: ['sh', '-c', 'exec 2>&1\n./server'] })), 'exec 2>&1\n./server', 'an exec that only redirects keeps the shell');
    assert.equal(shellScriptAsPid1(container({ command: ['sh', '-c', 'echo exec ready; ./server'] })), 'echo exec ready; ./server');
    assert.equal(shellScriptAsPid1(container({ command: ['python', 'app.py'] })), undefined);
  });

  it('a script of one program is run in place of the shell (bash, dash, BusyBox ash): that program is PID 1', () => {
    assert.equal(shellScriptAsPid1(container({ command: ['sh', '-c', 'python app.py'] })), undefined);
    assert.equal(shellScriptAsPid1(container({ command: ['/bin/bash', '-ec'], args: ['/usr/bin/node server.js --port 8080\n'] })), undefined);
    // A builtin or an assignment first is not one program.
    assert.equal(shellScriptAsPid1(container({ command: ['sh', '-c', 'PORT=80 node server.js'] })), 'PORT=80 node server.js');
    assert.equal(shellScriptAsPid1(container({ command: ['sh', '-c', 'wait'] })), 'wait');
    // Quoted words are arguments, whatever they hold.
    assert.equal(shellScriptAsPid1(container({ command: ['sh', '-c', "nginx -g 'daemon off;'"] })), undefined);
    assert.equal(shellScriptAsPid1(container({ command: ['sh', '-c', 'echo "a;b"; run'] })), 'echo "a;b"; run');
    assert.equal(containerStopMs(container({ command: ['sh', '-c', 'app --serve'] }), 30_000, 1000), 1000);
  });

  it('stops after its preStop and a prompt exit, after the grace under a shell, and 2 s past the grace when the hook uses it up', () => {
    const hook = { handler: 'exec' as const, command: ['sleep', '10'] };
    assert.equal(containerStopMs(container({ preStop: hook }), 30_000, 1000), 11_000);
    assert.equal(containerStopMs(container({ command: ['sh', '-c', 'cd /srv; app'] }), 30_000, 1000), 30_000);
    assert.equal(containerStopMs(container({ preStop: { handler: 'sleep', command: [], sleepSeconds: 60 } }), 30_000, 1000), 32_000);
    assert.equal(containerStopMs(container({}), 30_000, 1000), 1000);
  });
});
