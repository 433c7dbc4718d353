/** The web extension's worker bundle (dist/web/worker.js) answers the host's requests from a Web Worker in Chromium. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../support/shared';
import { describeWithChromium } from './browser';

describeWithChromium('the analysis worker in a browser (dist/web/worker.js)', (browser) => {
  it('analyses a document and simulates it in a Web Worker, with no Node built-ins', async () => {
    const source = fs.readFileSync(path.join(REPO_ROOT, 'dist', 'web', 'worker.js'), 'utf8');
    const text = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'postgres-statefulset.yaml'), 'utf8');
    const page = await browser().newPage();
    try {
      const answers = await page.evaluate(async ({ source, text }) => {
        type PageWorker = { postMessage(m: unknown): void; onmessage: (event: { data: unknown }) => void; terminate(): void };
        const PageWorker = (globalThis as unknown as { Worker: new (url: string) => PageWorker }).Worker;
        const worker = new PageWorker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
        const received: unknown[] = [];
        const done = new Promise<void>((resolve) => {
          worker.onmessage = (event) => {
            received.push(event.data);
            if (received.length === 3) resolve();
          };
        });
        const uri = 'file:///ws/postgres.yaml';
        worker.postMessage({ type: 'setDocument', folder: 'file:///ws', uri, text, version: 1 });
        worker.postMessage({ id: 1, type: 'analyse', folder: 'file:///ws', uri, version: 0 });
        worker.postMessage({ id: 2, type: 'analyse', folder: 'file:///ws', uri, version: 1 });
        worker.postMessage({ id: 3, type: 'simulate', folder: 'file:///ws', inputs: ['postgres.yaml'], choices: { failure: 'power-off', targets: [], preFailureMs: 0, interventions: [], durationMs: 600000, seed: 1 } });
        await done;
        worker.terminate();
        return received as { id: number; ok: boolean; kind?: string; value?: { findings?: { ruleId: string }[]; summary?: { workloads: { outcome: string }[] } } }[];
      }, { source, text });
      assert.deepEqual(answers.map((a) => [a.id, a.ok, a.kind]), [[1, false, 'superseded'], [2, true, undefined], [3, true, undefined]]);
      assert.ok(answers[1].value!.findings!.some((f) => f.ruleId === 'KFS002'));
      assert.equal(answers[2].value!.summary!.workloads[0].outcome, 'stuck');
    } finally {
      await page.close();
    }
  });
});
