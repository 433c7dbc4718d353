/**
 * `npm run bench:timeline`: the HTML report of a 1,000-pod, 30-minute trace in headless Chromium
 * (Debian's /usr/bin/chromium): its size, the first paint measured in the page, and the work of
 * one zoom or pan step; then a 15,000-pod trace's first paint, cursor steps and tab changes.
 * Prints figures; nothing passes or fails.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { reportAssets } from '../src/cli/reportAssets';
import { htmlReport } from '../src/report/htmlReport';
import { traceReport } from '../src/report/jsonReport';
import { packReport } from '../src/report/packedTrace';
import { simulate } from '../src/sim/simulate';
import { defaultChoices } from '../src/workspace/simulationChoices';
import { Workspace } from '../src/workspace/workspace';
import { largeInput, largeScenario } from './largeCluster';
import { fmt, median } from './measure';

const CHROMIUM = process.env.KFS_CHROMIUM ?? '/usr/bin/chromium';
const UNTRACED = 15;

/** Node objects for `zones` zones of `perZone` workers (4 CPU, 110 pods each), as kubectl get nodes -o yaml would list them. */
function nodeList(zones: string[], perZone: number): string {
  const items = zones.flatMap((zone) => Array.from({ length: perZone }, (_, i) => `- apiVersion: v1
  kind: Node
  metadata: {name: worker-${zone}${i + 1}, labels: {topology.kubernetes.io/zone: zone-${zone}, kubernetes.io/hostname: worker-${zone}${i + 1}}}
  status: {allocatable: {cpu: "4", memory: 15Gi, pods: "110"}}`));
  return `apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n`;
}

/**
 * 50 Deployments of 20 replicas behind Services: 1,000 pods, all Running on 15 nodes in 3 zones
 * (the default 6 nodes hold 660 pods at 110 each, which left 340 Pending); zone a (5 nodes) powers
 * off and its pods are replaced on the other zones.
 */
function largeTrace() {
  const workspace = new Workspace();
  for (let i = 0; i < 50; i++) {
    workspace.setDocument(`app${i}.yaml`, `apiVersion: apps/v1
kind: Deployment
metadata: {name: app${i}, namespace: team${i % 5}}
spec:
  replicas: 20
  selector: {matchLabels: {app: app${i}}}
  template:
    metadata: {labels: {app: app${i}}}
    spec: {containers: [{name: c, image: nginx, readinessProbe: {httpGet: {path: /, port: 80}}}]}
---
apiVersion: v1
kind: Service
metadata: {name: app${i}, namespace: team${i % 5}}
spec: {selector: {app: app${i}}, ports: [{port: 80}]}
`);
  }
  const scenario = workspace.scenario({
    ...defaultChoices(), targets: ['zone/zone-a'], durationMs: 30 * 60_000,
    clusterText: { texts: [nodeList(['a', 'b', 'c'], 5)], source: '15 generated nodes' },
  });
  return traceReport(scenario, ['50 Deployments x 20'], simulate(scenario));
}

/**
 * Page code (a string: this file compiles without the DOM library). Each interaction is repeated
 * once per animation frame for 30 frames. Two figures per frame: the interval between two frames'
 * timestamps (at 60 Hz ~16.7 ms means no frame was dropped), and the frame's main-thread work:
 * from the frame's timestamp to a task posted from its animation callback, which runs once the
 * frame's scripts, style, layout and paint are done (the cursor table's rebuild, which waits for
 * the next frame's callbacks, is in that frame's work).
 */
const FRAME_TIMES = `(async () => {
  const timeline = document.querySelector('.timeline');
  const chart = document.querySelector('svg.lane-chart');
  const lanes = document.querySelector('.lanes');
  const box = chart.getBoundingClientRect();
  const key = (k, shift) => () => timeline.dispatchEvent(new KeyboardEvent('keydown', { key: k, shiftKey: !!shift, bubbles: true }));
  const wheel = (i) => chart.dispatchEvent(new WheelEvent('wheel', { deltaY: i % 8 < 4 ? -120 : 120, clientX: box.left + box.width / 2, clientY: box.top + 50, bubbles: true, cancelable: true }));
  const afterFrame = (then) => { const channel = new MessageChannel(); channel.port1.onmessage = then; channel.port2.postMessage(0); };
  const run = async (action) => {
    const stamps = [];
    const work = [];
    for (let i = 0; i < 31; i++) await new Promise((resolve) => requestAnimationFrame((ts) => { stamps.push(ts); action(i); afterFrame(() => { work.push(performance.now() - ts); resolve(); }); }));
    await new Promise((resolve) => requestAnimationFrame((ts) => { stamps.push(ts); afterFrame(() => { work.push(performance.now() - ts); resolve(); }); }));
    return { intervals: stamps.slice(2).map((t, i) => t - stamps[i + 1]), work: work.slice(2) };
  };
  const idle = await run(() => {});
  const zoom = await run((i) => key(i % 8 < 4 ? '+' : '-')());
  const wheelZoom = await run(wheel);
  key('+')(); key('+')();
  const pan = await run((i) => key(i % 8 < 4 ? 'ArrowRight' : 'ArrowLeft', true)());
  const cursor = await run(() => key('ArrowRight')());
  const scroll = await run(() => { lanes.scrollTop += 200; });
  return { idle, zoom, wheelZoom, pan, cursor, scroll };
})()`;

interface TraceEvent { name: string; ph: string; tid: number; ts: number; dur?: number; tdur?: number }

/**
 * The renderer main thread's CPU time (tdur) in top-level tasks from navigation start to the
 * first contentful paint: on a loaded machine the wall-clock figure mostly says how long the
 * page waited for a core.
 */
function mainThreadCpuBefore(events: TraceEvent[], paintMs: number): number {
  const fcp = events.find((e) => e.name === 'firstContentfulPaint');
  if (!fcp) return NaN;
  const start = fcp.ts - paintMs * 1000;
  let end = -Infinity;
  let cpu = 0;
  for (const e of events.filter((x) => x.ph === 'X' && x.tid === fcp.tid && x.ts >= start && x.ts < fcp.ts && x.tdur !== undefined).sort((a, b) => a.ts - b.ts)) {
    if (e.ts < end) continue; // nested in the task before
    cpu += e.tdur!;
    end = e.ts + (e.dur ?? 0);
  }
  return cpu / 1000;
}

/**
 * Waits for the page to be drawn by asking it every 50 ms from here. A locator's wait injects
 * Playwright's script into the page while it loads, and its DOM queries compete with the page for
 * the main thread before the first paint: the harness's work, not the page's (4 ms at the median of
 * 40 alternating loads each way, 144 against 148 ms).
 */
async function readyWithoutWatching(page: Page): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await page.evaluate<boolean>(`document.body?.dataset.ready === 'true'`))) {
    if (Date.now() > deadline) throw new Error('the report was not drawn within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Page code: the time from a key pressed on the timeline, or a tab chosen, to the second frame
 * after it (the table or panel it changes is drawn in the first).
 */
const STEP_TIMES = `(async () => {
  const twoFrames = (act) => new Promise((resolve) => { const t = performance.now(); act(); requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t)))); });
  const key = (k) => twoFrames(() => document.querySelector('.timeline').dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })));
  const tab = (id) => twoFrames(() => document.getElementById(id).click());
  const steps = {};
  for (const k of ['End', 'Home', 'ArrowRight', 'PageDown']) steps[k] = await key(k);
  steps['Summary tab'] = await tab('tab-summary');
  steps['Events tab'] = await tab('tab-events');
  steps['At cursor tab'] = await tab('tab-cursor');
  return steps;
})()`;

/** The 500-node benchmark cluster (15,000 pods) losing zone a for 10 minutes: how the page copes with 15 times the pods. */
async function largeTraceFigures(browser: Browser, dir: string): Promise<void> {
  const { scenario } = largeScenario(largeInput(500));
  const run = { ...scenario, durationMs: 10 * 60_000 };
  const report = traceReport(run, ['500-node benchmark cluster'], simulate(run));
  const html = htmlReport({ title: 'zone-outage of zone a: 500 nodes, 15,000 pods', report }, reportAssets(path.join(__dirname, '..', 'src', 'cli')));
  const file = path.join(dir, 'large.html');
  fs.writeFileSync(file, html);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`file://${file}`, { waitUntil: 'commit' });
  await readyWithoutWatching(page);
  const paint = await page.evaluate<number>(`performance.getEntriesByName('first-contentful-paint')[0].startTime`);
  const steps = await page.evaluate<Record<string, number>>(STEP_TIMES);
  await page.close();
  console.log(`  a 15,000-pod trace (the 500-node benchmark cluster, zone a down for 10 minutes: ${report.states.length} state intervals, HTML ${(Buffer.byteLength(html) / 2 ** 20).toFixed(1)} MiB): first paint ${fmt(paint)} (one load); to the second frame after`);
  console.log(`    ${Object.entries(steps).map(([step, ms]) => `${step} ${fmt(ms)}`).join(', ')}`);
}

async function main(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`Timeline benchmark skipped: ${CHROMIUM} is absent (apt-get install chromium).`);
    return;
  }
  const started = Date.now();
  const report = largeTrace();
  const pods = new Set(report.states.filter((s) => s.object.kind === 'Pod').map((s) => `${s.object.namespace}/${s.object.name}`)).size;
  const runningBefore = report.states.filter((s) => s.object.kind === 'Pod' && s.from <= 0 && (s.to === null || s.to > 0) && s.status === 'Running').length;
  const html = htmlReport({ title: 'power-off of zone a (5 of 15 nodes): 50 Deployments x 20 replicas', report }, reportAssets(path.join(__dirname, '..', 'src', 'cli')));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-bench-')), 'report.html');
  fs.writeFileSync(file, html);
  // KFS_BENCH_HTML=FILE keeps a copy, to profile the page in DevTools.
  if (process.env.KFS_BENCH_HTML) fs.copyFileSync(file, process.env.KFS_BENCH_HTML);
  const assets = reportAssets(path.join(__dirname, '..', 'src', 'cli'));
  console.log(`Timeline (HTML report in headless Chromium ${CHROMIUM})`);
  console.log(`  trace: ${runningBefore} pods Running before the failure on ${report.scenario.cluster.nodes.length} nodes, ${pods} pod objects in all, ${report.states.length} state intervals, ${report.events.length} events, 30 simulated minutes (built in ${Date.now() - started} ms)`);
  console.log(`  HTML file: ${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB (webview bundle ${(assets.script.length / 1024).toFixed(0)} KiB, toolkit bundle ${(assets.controls.length / 1024).toFixed(0)} KiB, trace JSON ${(JSON.stringify(report).length / 1024).toFixed(0)} KiB, embedded packed in ${(JSON.stringify(packReport(report)).length / 1024).toFixed(0)} KiB)`);

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const paints: number[] = [];
    const renders: number[] = [];
    const mainThreadCpu: number[] = [];
    // The first UNTRACED loads measure the paint (the tracer slows the page it watches; on two
    // cores one load varies by ±30 ms, so the median needs many); the last three are traced, for
    // the main thread's CPU time.
    const loads = UNTRACED + 3;
    for (let i = 0; i < loads; i++) {
      const traced = i >= UNTRACED;
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      if (traced) await browser.startTracing(page, { categories: ['devtools.timeline', 'loading'] });
      await page.goto(`file://${file}`, { waitUntil: 'commit' });
      await readyWithoutWatching(page);
      // From navigation start to the first frame painted (Chromium's first-contentful-paint: the page
      // draws nothing before the timeline), and the timeline's own script time within it.
      const paint = await page.evaluate<number>(`performance.getEntriesByName('first-contentful-paint')[0].startTime`);
      if (traced) mainThreadCpu.push(mainThreadCpuBefore(JSON.parse((await browser.stopTracing()).toString()).traceEvents, paint));
      else {
        paints.push(paint);
        // Our script before that paint: the lanes' data (kfs:model) and the page built from it (kfs:dom).
        renders.push(await page.evaluate<number>(`performance.getEntriesByName('kfs:dom')[0].duration`));
      }
      if (i < loads - 1) await page.close();
      else {
        const frames = await page.evaluate<Record<string, { intervals: number[]; work: number[] }>>(FRAME_TIMES);
        console.log(`  first paint: median ${fmt(median(paints))} after navigation start (target <= 150 ms), of which ${fmt(median(renders))} in our script from the trace to the drawn lanes (${UNTRACED} untraced loads; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`);
        console.log(`  main thread's CPU time before that paint: median ${fmt(median(mainThreadCpu))} of 3 traced loads (thread time: what the page costs, whatever else the machine runs)`);
        console.log('  repeating an interaction every frame (30 frames): main-thread work per frame (target <= 16 ms), and frame intervals (16.7 ms = no frame dropped at 60 Hz):');
        for (const [name, { intervals, work }] of Object.entries(frames)) {
          const slow = intervals.filter((ms) => ms > 17.5).length;
          const over = work.filter((ms) => ms > 16).length;
          console.log(`    ${name.padEnd(10)} work median ${fmt(median(work))}, max ${fmt(Math.max(...work))}, ${over} over 16 ms; interval median ${fmt(median(intervals))}, max ${fmt(Math.max(...intervals))}, ${slow} over 17.5 ms`);
        }
      }
    }
    await largeTraceFigures(browser, path.dirname(file));
  } finally {
    await browser.close();
  }
}

void main();
