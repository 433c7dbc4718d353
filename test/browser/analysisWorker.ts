/**
 * Test-only entry point, bundled by test/browser/webWorker.test.ts for the browser (esbuild,
 * platform browser: a Node built-in anywhere below would fail the build) and run in a Web
 * Worker: the workspace service analyses a manifest it is sent and posts the findings back.
 */
import { Workspace } from '../../src/workspace/workspace';

interface Request { uri: string; text: string }
declare const self: { onmessage: ((event: { data: Request }) => void) | null; postMessage(message: unknown): void };

self.onmessage = ({ data }) => {
  const workspace = new Workspace();
  workspace.setDocument(data.uri, data.text);
  const findings = workspace.analyse(data.uri).findings.map((f) => ({ ruleId: f.ruleId, severity: f.severity, line: f.range.start.line, message: f.message }));
  const scope = globalThis as { document?: unknown; process?: unknown; WorkerGlobalScope?: unknown };
  self.postMessage({ findings, inWorker: typeof scope.WorkerGlobalScope === 'function' && scope.document === undefined, hasProcess: scope.process !== undefined });
};
