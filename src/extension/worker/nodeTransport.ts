/** A worker thread as the connection's transport (desktop; tests use it too, as it has no `vscode`). */
import { Worker } from 'node:worker_threads';
import type { WorkerRole, WorkerTransport } from './workerClient';

/** Starts `file` (dist/worker.js) as a worker thread. */
export function nodeWorker(file: string, role: WorkerRole): WorkerTransport {
  const worker = new Worker(file, { name: `kube-failure-sim ${role}` });
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => void worker.on('message', listener),
    onExit: (listener) => {
      worker.on('error', listener);
      worker.on('exit', (code) => listener(new Error(`exit code ${code}`)));
    },
    terminate: () => void worker.terminate(),
  };
}
