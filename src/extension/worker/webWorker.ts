/** The worker's entry in the browser (dist/web/worker.js): the service on a Web Worker's global scope. */
import { WorkerService } from './service';

interface WorkerScope {
  postMessage(message: unknown): void;
  onmessage: ((event: { data: unknown }) => void) | null;
}

const scope = globalThis as unknown as WorkerScope;
const service = new WorkerService((response) => scope.postMessage(response));
scope.onmessage = (event) => service.receive(event.data);
