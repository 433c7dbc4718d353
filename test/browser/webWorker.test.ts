/** The web extension's premise: the analysis runs in a browser, in a Web Worker, with no Node built-in. */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { build } from 'esbuild';
import { REPO_ROOT } from '../support/shared';
import { describeWithChromium } from './browser';

const STATEFULSET = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 1
  selector:
    matchLabels: {app: db}
  template:
    metadata:
      labels: {app: db}
    spec:
      containers:
        - name: db
          image: postgres:16
`;

interface WorkerAnswer {
  findings: { ruleId: string; severity: string; line: number; message: string }[];
  inWorker: boolean;
  hasProcess: boolean;
}

describeWithChromium('analysis in a Web Worker (Chromium)', (browser) => {
  let workerCode: string;
  before(async () => {
    const result = await build({
      entryPoints: [path.join(REPO_ROOT, 'test', 'browser', 'analysisWorker.ts')],
      bundle: true, platform: 'browser', format: 'iife', target: 'es2022', write: false, logLevel: 'silent',
    });
    workerCode = result.outputFiles[0].text;
  });

  it('finds KFS001 for a single-replica StatefulSet, under a CSP without eval', async () => {
    const page = await browser().newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    // A page of its own origin with a strict policy: scripts only by nonce, workers only from blob: (no 'unsafe-eval').
    await page.route('http://kfs.test/**', (route) => route.fulfill({
      contentType: 'text/html',
      headers: { 'Content-Security-Policy': "default-src 'none'; script-src 'nonce-kfs'; worker-src blob:" },
      body: '<!DOCTYPE html><title>worker</title>',
    }));
    await page.goto('http://kfs.test/');
    const answer = await page.evaluate<WorkerAnswer, { code: string; text: string }>(({ code, text }) => new Promise((resolve, reject) => {
      const g = globalThis as unknown as {
        Worker: new (url: string) => { onmessage: (e: { data: WorkerAnswer }) => void; onerror: (e: { message: string }) => void; postMessage(m: unknown): void };
        Blob: new (parts: string[], options: { type: string }) => unknown;
        URL: { createObjectURL(blob: unknown): string };
      };
      const worker = new g.Worker(g.URL.createObjectURL(new g.Blob([code], { type: 'text/javascript' })));
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => reject(new Error(e.message));
      worker.postMessage({ uri: 'memory:/db.yaml', text });
    }), { code: workerCode, text: STATEFULSET });
    await page.close();
    assert.deepEqual(errors, []);
    assert.equal(answer.inWorker, true);
    assert.equal(answer.hasProcess, false);
    const kfs001 = answer.findings.filter((f) => f.ruleId === 'KFS001');
    assert.equal(kfs001.length, 1);
    assert.equal(kfs001[0].severity, 'warning');
    assert.equal(kfs001[0].line, 1);
    assert.match(kfs001[0].message, /db-0 is deleted at \d+m\d+s but stays Terminating/);
  });
});
