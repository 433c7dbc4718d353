/** The worker's entry on desktop (dist/worker.js): the service on worker_threads' parent port. */
import { parentPort } from 'node:worker_threads';
import { WorkerService } from './service';

if (!parentPort) throw new Error('dist/worker.js runs as a worker thread of the extension host.');
const port = parentPort;
const service = new WorkerService((response) => port.postMessage(response));
port.on('message', (message: unknown) => service.receive(message));
