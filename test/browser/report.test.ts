import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { main } from '../../src/cli/main';
import { collectingOutput } from '../../src/cli/output';
import { reportAssets } from '../../src/cli/reportAssets';
import { formatDuration } from '../../src/report/format';
import { htmlReport } from '../../src/report/htmlReport';
import { traceReport } from '../../src/report/jsonReport';
import { simulate } from '../../src/sim/simulate';
import { defaultChoices } from '../../src/workspace/simulationChoices';
import { Workspace } from '../../src/workspace/workspace';
import { exampleTrace } from '../report/timelineSupport';
import { REPO_ROOT } from '../support/shared';
import { describeWithChromium } from './browser';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kfs-browser-'));

function report(name: string, ...args: string[]): string {
  const file = path.join(dir, name);
  const output = collectingOutput();
  const cwd = process.cwd();
  process.chdir(REPO_ROOT);
  try {
    assert.equal(main(['simulate', ...args, '--format', 'html', '-o', file], output), 0, output.err);
  } finally {
    process.chdir(cwd);
  }
  return file;
}

interface Opened {
  page: Page;
  /** Console errors and CSP violations seen by the page. */
  problems: string[];
}

async function open(browser: Browser, file: string, height = 900): Promise<Opened> {
  const page = await browser.newPage({ viewport: { width: 1000, height } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // Injected by the browser itself (CDP), so it runs although the page's CSP allows only its nonce.
  // (Page code as strings: the tests compile without the DOM library.)
  await page.addInitScript({
    content: `window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));`,
  });
  await page.goto(`file://${file}`);
  await page.locator('body[data-ready=true]').waitFor({ timeout: 15_000 });
  return { page, problems };
}

/**
 * Page code: for each [what, element], the WCAG contrast ratio of its text colour (an outline's
 * colour for a swatch) against the page background. Computed colours come as rgb() or, from
 * color-mix(), as color(srgb ...).
 */
const CONTRAST = `(pairs) => {
  const rgb = (css) => {
    const srgb = /^color\\(srgb ([\\d.]+) ([\\d.]+) ([\\d.]+)/.exec(css);
    return srgb ? srgb.slice(1, 4).map(Number) : css.match(/[\\d.]+/g).slice(0, 3).map((v) => Number(v) / 255);
  };
  const luminance = (css) => {
    const [r, g, b] = rgb(css).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const background = luminance(getComputedStyle(document.body).backgroundColor);
  return pairs.map(([what, element]) => {
    const style = getComputedStyle(element);
    const l = luminance(element.classList.contains('swatch') ? style.borderTopColor : style.color);
    return [what, (Math.max(l, background) + 0.05) / (Math.min(l, background) + 0.05)];
  });
}`;

const cursorMs = (page: Page) => page.evaluate<number>('Number(document.body.dataset.cursorMs)');
/** The cells of each row of a grid table, joined by a space. */
const rowTexts = (page: Page, table: string) => page.evaluate<string[]>(
  `Array.from(document.querySelectorAll(${JSON.stringify(`${table} [role=rowgroup] [role=row]`)}), (row) => Array.from(row.children, (cell) => cell.textContent).join(' '))`,
);

describeWithChromium('HTML report in Chromium', (browser) => {
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  let examples: string;
  before(() => {
    examples = report('examples.html', 'examples', '--duration', '10m');
  });

  it('draws a lane per node and per affected workload, with pod bars', async () => {
    // Tall enough that every lane is drawn (only the lanes in view are).
    const { page, problems } = await open(browser(), examples, 2000);
    assert.deepEqual(await page.locator('.lane-label-node .name').allInnerTexts(), ['worker-a1', 'worker-a2', 'worker-b1', 'worker-b2', 'worker-c1', 'worker-c2']);
    assert.deepEqual(await page.locator('.lane-label-workload .name [aria-hidden=true]').allInnerTexts(), ['kafka', 'node-exporter']);
    // A screen reader reads the whole label in place of the shortened name (a span's aria-label would be ignored).
    assert.deepEqual(await page.locator('.lane-label-workload .name .sr-only').allTextContents(), ['StatefulSet kafka, stuck', 'DaemonSet node-exporter, waits-for-node']);
    // The visible outcome tag is not read a second time; each row says where it sits among all rows.
    assert.deepEqual(await page.locator('.lane-label-workload .tag').evaluateAll((tags) => tags.map((t) => t.getAttribute('aria-hidden'))), ['true', 'true']);
    const rowCount = await page.locator('.lane-labels [role=listitem]').count();
    assert.deepEqual(await page.locator('.lane-labels [role=listitem]').evaluateAll((items) => items.map((i) => `${i.getAttribute('aria-posinset')}/${i.getAttribute('aria-setsize')}`)),
      Array.from({ length: rowCount }, (_, i) => `${i + 1}/${rowCount}`));
    assert.equal(await page.locator('.lane-label-pod').count(), 9);
    // The legend explains the node bands' colours first, and the READY and endpoint lines' too.
    const legend = (await page.locator('.legend li').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(legend.slice(0, 3), ['node Ready', 'node Ready=False', 'node Ready=Unknown']);
    assert.deepEqual(legend.slice(-3), ['line: all ready', 'line: some ready', 'line: none ready']);
    // Every key moment on the axis is named on hover, whether or not its label found room.
    const moments = await page.locator('.axis line.moment').count();
    assert.ok(moments >= 3, `${moments} moments`);
    const named = await page.locator('.axis line.moment-hit title').allTextContents();
    assert.equal(named.length, moments);
    assert.ok(named.some((t) => /NotReady$/.test(t)) && named.every((t) => /^\S+ {2}\S/.test(t)), named.join(' | '));
    assert.ok(await page.locator('rect.bar.cat-terminating').count() >= 1);
    assert.ok(await page.locator('rect.node-band.condition-unknown').count() >= 1);
    // The toolkit, loaded after the first paint, took the theme's colours (--vscode-foreground #3b3b3b).
    assert.equal(await page.evaluate<string>(`getComputedStyle(document.querySelector('vscode-panel-view')).color`), 'rgb(59, 59, 59)');
    await page.locator('vscode-checkbox').click();
    assert.equal(await page.locator('.lane-label-workload').count(), 5);
    // In a side column the failed node's name and its tag still fit.
    await page.setViewportSize({ width: 420, height: 900 });
    await page.waitForTimeout(100);
    assert.deepEqual(await page.locator('.lane-label-node .name').allInnerTexts(), ['worker-a1', 'worker-a2', 'worker-b1', 'worker-b2', 'worker-c1', 'worker-c2']);
    assert.equal(await page.locator('.lane-label-node .tag-failed').count(), 1);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('shows kubectl get pods,nodes at 400 s under the cursor: kafka-0 Terminating on the NotReady node', async () => {
    const { page, problems } = await open(browser(), examples);
    const chart = await page.locator('svg.lane-chart').boundingBox();
    assert.ok(chart);
    await page.mouse.click(chart.x + (400 / 600) * chart.width, chart.y + 20);
    const t = await cursorMs(page);
    assert.ok(Math.abs(t - 400_000) < 1000, `cursor at ${t} ms`);
    // The table follows the cursor on the next frame.
    await page.locator('.cursor-table .caption', { hasText: `As of ${formatDuration(t)} ` }).waitFor();
    const rows = await rowTexts(page, '.pods-at');
    assert.ok(rows.includes('streaming pod/kafka-0 1/1 Terminating 0 10.244.0.2 worker-a1'), rows.join('\n'));
    assert.ok(rows.includes('streaming pod/kafka-1 1/1 Running 0 10.244.2.2 worker-b1'));
    assert.equal(rows.filter((r) => r.includes(' Running ')).length, 13);
    assert.match((await page.locator('.pods-at').getAttribute('aria-label'))!, /^Pods at 6m\d\d?(\.\d+)?s after the failure$/);
    const nodes = await rowTexts(page, '.nodes-at');
    assert.equal(nodes[0], 'node/worker-a1 NotReady node.kubernetes.io/unreachable:NoSchedule, node.kubernetes.io/unreachable:NoExecute');
    // On the light theme, every STATUS colour and a summary's figures as text read at 4.5:1 at least (a cell of each
    // kind is added to the table), and the light fill of "Running, not ready" has an outline of 3:1.
    const contrasts = await page.evaluate<[string, number][]>(`(${CONTRAST})([
      ...['ready', 'unready', 'pending', 'creating', 'terminating', 'unknown', 'failed'].map((category) => 'status cat-' + category),
      'status node-ready', 'status node-notready', 'figures warn', 'figures bad',
    ].map((classes) => {
      const [parent, child] = classes.split(' ');
      const row = document.querySelector('.pods-at').appendChild(document.createElement(parent === 'figures' ? 'dl' : 'div'));
      row.className = parent === 'figures' ? 'figures' : 'grid-row';
      const cell = row.appendChild(document.createElement('span'));
      cell.className = parent === 'figures' ? child : classes;
      return [classes, cell];
    }).concat([['not ready outline', document.querySelector('.swatch.cat-unready')]]))`);
    for (const [what, ratio] of contrasts) assert.ok(ratio >= (what === 'not ready outline' ? 3 : 4.5), `${what}: ${ratio.toFixed(2)}:1`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('moves the cursor with the keyboard and jumps between events', async () => {
    const { page } = await open(browser(), examples);
    // The cursor is a slider of its own; the lanes' buttons are not inside it (a slider's content is presentational).
    assert.equal(await page.locator('[role=slider]').count(), 1);
    assert.equal(await page.locator('[role=slider] button').count(), 0);
    assert.ok(await page.locator('.lane-label button').count() > 0);
    await page.locator('.axis').focus();
    await page.keyboard.press('Home');
    assert.equal(await cursorMs(page), 0);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await cursorMs(page), 10_000);
    // Up and down, as on any slider: later and earlier.
    await page.keyboard.press('ArrowUp');
    assert.equal(await cursorMs(page), 15_000);
    await page.keyboard.press('ArrowDown');
    assert.equal(await cursorMs(page), 10_000);
    await page.keyboard.press('PageDown');
    assert.equal(await cursorMs(page), 23_008);
    // At a key moment the value names it: the axis that labels it is hidden from screen readers.
    assert.equal(await page.locator('.axis').getAttribute('aria-valuetext'), '23.008s after the failure: NotReady');
    await page.keyboard.press('End');
    assert.equal(await cursorMs(page), 600_000);
    await page.locator('.cursor-table .caption', { hasText: 'As of 10m after' }).waitFor();
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    const axis = await page.locator('.axis-label').allTextContents();
    assert.ok(!axis.includes('0s'), `zoomed in around the cursor at the end: ${axis.join(' ')}`);
    await page.close();
  });

  it('makes the toolbar one Tab stop whose controls the arrow keys, Home and End reach', async () => {
    const { page } = await open(browser(), examples);
    const focused = () => page.evaluate<string | null>('document.activeElement && document.activeElement.getAttribute("aria-label")');
    const tabStops = await page.locator('.toolbar > *').evaluateAll((items) => items.map((i) => (i as unknown as { tabIndex: number }).tabIndex));
    assert.deepEqual(tabStops.filter((t) => t === 0).length, 1, `tab indexes ${tabStops.join(',')}`);
    await page.locator('.toolbar > *').first().focus();
    assert.equal(await focused(), 'Zoom out');
    await page.keyboard.press('ArrowRight');
    assert.equal(await focused(), 'Zoom in');
    await page.keyboard.press('End');
    const last = await page.locator('.toolbar > *').last().evaluate((e) => e.getAttribute('aria-label') ?? e.textContent);
    assert.equal(await page.evaluate<string | null>('document.activeElement && (document.activeElement.getAttribute("aria-label") || document.activeElement.textContent)'), last);
    await page.keyboard.press('ArrowRight');
    assert.equal(await focused(), 'Zoom out', 'wraps to the first');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Home');
    assert.equal(await focused(), 'Zoom out');
    // Enter on a control still works: zoom in from the keyboard.
    await page.keyboard.press('ArrowRight');
    const before = await page.locator('.axis-label').allTextContents();
    await page.keyboard.press('Enter');
    await page.waitForTimeout(100);
    assert.notDeepEqual(await page.locator('.axis-label').allTextContents(), before);
    // Tab leaves the toolbar for the timeline's cursor.
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Timeline cursor, time since the failure');
    await page.close();
  });

  it('keeps the keyboard focus on a lane\'s button when the lanes are drawn again, so keys keep working; names are plain text in the report', async () => {
    const { page } = await open(browser(), examples);
    // No editor to show YAML in: no name is a button, and the help does not promise it.
    assert.equal(await page.locator('.lane-label .name.link').count(), 0);
    assert.doesNotMatch(await page.locator('.help').innerText(), /YAML/);
    const toggle = page.locator('.lane-label-workload button.disclosure').first();
    const row = await page.locator('.lane-label-workload').first().getAttribute('data-id');
    await toggle.focus();
    const focusedRow = () => page.evaluate<string>('document.activeElement.closest(".lane-label")?.dataset.id ?? document.activeElement.tagName');
    await page.keyboard.press('+');
    assert.equal(await focusedRow(), row, 'zoom redraws the lanes');
    await page.keyboard.press('Shift+ArrowRight');
    assert.equal(await focusedRow(), row, 'pan redraws the lanes');
    await page.keyboard.press('End');
    assert.equal(await cursorMs(page), 600_000, 'a key pressed after the redraws still works');
    await page.close();
  });

  it('moves the focus between the lanes\' buttons with ↑/↓, scrolling each into view, without moving the cursor', async () => {
    // A short window: the lanes scroll, and only those in view are built.
    const { page, problems } = await open(browser(), examples, 500);
    await page.locator('vscode-checkbox').click();
    const toggles = await page.locator('.lane-label-workload').count();
    assert.ok(toggles >= 2);
    await page.locator('.lane-label-workload button.disclosure').first().focus();
    const cursor = await cursorMs(page);
    const visited: string[] = [];
    for (let i = 0; i < 5; i++) {
      visited.push(await page.evaluate<string>('document.activeElement.closest(".lane-label")?.querySelector(".name")?.textContent ?? document.activeElement.tagName'));
      await page.keyboard.press('ArrowDown');
    }
    // Every workload in turn (StatefulSet and DaemonSet first, then the unaffected ones), each a button in view.
    assert.equal(new Set(visited).size, 5, visited.join(', '));
    assert.ok(visited.every((name) => name !== 'DIV' && name !== 'BODY'), visited.join(', '));
    assert.ok(await page.evaluate<boolean>('(() => { const r = document.activeElement.getBoundingClientRect(), l = document.querySelector(".lanes").getBoundingClientRect(); return r.top >= l.top && r.bottom <= l.bottom; })()'));
    assert.equal(await cursorMs(page), cursor);
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.evaluate<string>('document.activeElement.closest(".lane-label")?.querySelector(".name")?.textContent ?? ""'), visited[3]);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('builds the kubectl table a block of rows at a time as it comes into view, and updates the rows built as the cursor moves', async () => {
    // 30 StatefulSets of 10 on 9 nodes in 3 zones, zone a powered off: 300 pod rows in 5 blocks, the
    // same 300 to the end (a StatefulSet does not replace a pod that stays Terminating).
    const workspace = new Workspace();
    for (let i = 0; i < 30; i++) {
      workspace.setDocument(`app${i}.yaml`, `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: app${i}, namespace: team}\nspec:\n  serviceName: app${i}\n  replicas: 10\n  selector: {matchLabels: {app: app${i}}}\n  template:\n    metadata: {labels: {app: app${i}}}\n    spec: {containers: [{name: c, image: nginx}]}\n`);
    }
    const nodes = ['a', 'b', 'c'].flatMap((zone) => [1, 2, 3].map((n) => `- {apiVersion: v1, kind: Node, metadata: {name: worker-${zone}${n}, labels: {topology.kubernetes.io/zone: zone-${zone}}}, status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}}`));
    const scenario = workspace.scenario({ ...defaultChoices(), targets: ['zone/zone-a'], durationMs: 600_000, clusterText: { texts: [`apiVersion: v1\nkind: List\nitems:\n${nodes.join('\n')}\n`], source: 'test' } });
    const trace = traceReport(scenario, ['30 StatefulSets'], simulate(scenario));
    const file = path.join(dir, 'blocks.html');
    fs.writeFileSync(file, htmlReport({ title: 'zone a of 9 nodes', report: trace }, reportAssets(path.join(REPO_ROOT, 'out', 'src', 'cli'))));
    const { page, problems } = await open(browser(), file, 600);
    assert.equal(await page.locator('.pods-at').getAttribute('aria-rowcount'), '301');
    const built = () => page.evaluate<number[]>(`Array.from(document.querySelectorAll('.pods-at [role=rowgroup] [role=row]'), (row) => Number(row.getAttribute('aria-rowindex')))`);
    const rowsFrom = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);
    assert.deepEqual(await built(), rowsFrom(2, 64), 'only the first block while the table is out of view');
    // At the end, zone a's pods are Terminating (STATUS is wider: the table is built anew).
    await page.locator('.axis').focus();
    await page.keyboard.press('End');
    const statuses = async () => (await rowTexts(page, '.pods-at')).map((row) => row.split(' ')[3]);
    for (let i = 0; !(await statuses()).includes('Terminating') && i < 50; i++) await page.waitForTimeout(20);
    assert.deepEqual(await built(), rowsFrom(2, 64));
    // Scrolled to its end: the blocks in view and within a screen of it are built, in order.
    await page.evaluate(`document.querySelector('.nodes-at').scrollIntoView()`);
    for (let i = 0; (await built()).at(-1) !== 301 && i < 50; i++) await page.waitForTimeout(20);
    const blocks = await built();
    assert.deepEqual(blocks.slice(0, 64), rowsFrom(2, 64));
    assert.deepEqual(blocks.slice(-64), rowsFrom(238, 64));
    const atEnd = await rowTexts(page, '.pods-at');
    const terminating = atEnd.filter((row) => row.includes(' Terminating '));
    assert.ok(terminating.length > 0 && terminating.every((row) => / worker-a\d$/.test(row)), atEnd.join('\n'));
    assert.ok(atEnd.slice(-64).some((row) => row.includes(' Terminating ')), 'the last block is built with the values of the cursor');
    // Back at the start the same pods are listed: the rows built keep their elements and get the new values.
    await page.evaluate(`document.querySelector('.pods-at [role=rowgroup]:last-child [role=row]').dataset.kept = 'yes'`);
    await page.locator('.axis').focus();
    await page.keyboard.press('Home');
    for (let i = 0; (await statuses()).includes('Terminating') && i < 50; i++) await page.waitForTimeout(20);
    const atStart = await rowTexts(page, '.pods-at');
    assert.equal(atStart.length, atEnd.length);
    assert.equal(await page.locator('.pods-at [data-kept=yes]').count(), 1, 'updated in place, not built anew');
    assert.ok(atStart.every((row) => /^team pod\/app\d+-\d+ 1\/1 Running 0 10\.244\.\d+\.\d+ worker-[abc]\d$/.test(row)), atStart.join('\n'));
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('shows names, labels and annotations made of HTML and script as text, and runs none of them', async () => {
    // The API server rejects such names, so `simulate` refuses them (KFS094): the page is built as the
    // CLI builds it, from the simulator directly. The file name is hostile too: it is in the title and header.
    const input = `<img src=x onerror=window.__pwned='file'>.yaml`;
    const workspace = new Workspace();
    workspace.setDocument(input, fs.readFileSync(path.join(REPO_ROOT, 'test', 'browser', 'hostile.yaml'), 'utf8'));
    const scenario = workspace.scenario({ ...defaultChoices(), durationMs: 600_000 });
    const trace = traceReport(scenario, [input], simulate(scenario));
    const file = path.join(dir, 'hostile.html');
    fs.writeFileSync(file, htmlReport({ title: `power-off of ${trace.summary.failedNodes.join(', ')}: ${input}`, report: trace }, reportAssets(path.join(REPO_ROOT, 'out', 'src', 'cli'))));
    const { page, problems } = await open(browser(), file);
    const workload = `<img src=x onerror="window.__pwned='img'">`;
    // A long name is shortened in the middle; its tooltip has it whole. Text either way.
    const [shown] = await page.locator('.lane-label-workload .name [aria-hidden=true]').allInnerTexts();
    assert.ok(shown.startsWith('<img src=') && shown.endsWith(`'img'">`), shown);
    assert.equal(await page.locator('.lane-label-workload .name').getAttribute('title'), `Deployment/${workload} in "><script>window.__pwned='ns'</script>`);
    assert.match(await page.locator('h1').innerText(), /<img src=x onerror=window.__pwned='file'>\.yaml$/);
    assert.match(await page.locator('.lane-label-endpoints').getAttribute('title') ?? '', /javascript:window.__pwned='svc'/);
    // Wide enough for kubectl's one line per pod with these long names.
    await page.setViewportSize({ width: 1600, height: 900 });
    await page.locator('.pods-at .grid-head [role=columnheader]:first-child', { hasText: /^NAMESPACE$/ }).waitFor();
    const rows = await rowTexts(page, '.pods-at');
    assert.equal(rows.length, 2);
    assert.ok(rows.every((row) => row.startsWith(`"><script>window.__pwned='ns'</script> pod/${workload}-`)), rows.join('\n'));
    await page.locator('vscode-panel-tab#tab-events').click();
    await page.locator('.axis').focus();
    await page.keyboard.press('End');
    await page.locator('.events-at td', { hasText: `Marking for deletion Pod "><script>window.__pwned='ns'</script>/${workload}` }).waitFor();
    assert.equal(await page.locator('#root img, #root a').count(), 0);
    // The page's own scripts only: the check for a file cut short, the JSON, the inert copy of the controls, the bundle and the controls it ran.
    assert.equal(await page.locator('script').count(), 5);
    assert.equal(await page.locator('script:not([nonce]):not([type]):not(#kfs-controls)').count(), 0);
    assert.equal(await page.evaluate('typeof window.__pwned'), 'undefined');
    assert.deepEqual(await page.evaluate('window.__csp'), []);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('shows bidirectional controls in names as \\uXXXX text, so that a name cannot turn the text around it backwards', async () => {
    const workspace = new Workspace();
    workspace.setDocument('web.yaml', fs.readFileSync(path.join(REPO_ROOT, 'examples', 'web-deployment.yaml'), 'utf8'));
    const scenario = workspace.scenario({ ...defaultChoices(), durationMs: 120_000 });
    const trace = traceReport(scenario, ['web\u202Eevil.yaml'], simulate(scenario));
    // The failed node renamed as a --cluster file may name it (Node names are not checked there).
    const renamed = JSON.parse(JSON.stringify(trace).replaceAll('"worker-a1"', '"worker-\u2067a1\u202E"'));
    const file = path.join(dir, 'bidi.html');
    fs.writeFileSync(file, htmlReport({ title: 'power-off of node-c\u202Eevil', report: renamed }, reportAssets(path.join(REPO_ROOT, 'out', 'src', 'cli'))));
    const { page, problems } = await open(browser(), file);
    assert.equal(await page.locator('h1').innerText(), 'power-off of node-c\\u202eevil');
    assert.equal(await page.locator('.lane-label-node .name').first().innerText(), 'worker-\\u2067a1\\u202e');
    assert.equal(await page.evaluate<boolean>(`/[\u202a-\u202e\u2066-\u2069]/.test(document.body.innerText)`), false);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('keeps STATUS and each event\'s message in view at the width of a side column, and kubectl\'s order when wide', async () => {
    const headings = (page: Page) => page.locator('.pods-at .grid-head [role=columnheader]').allInnerTexts();
    // A long workload name (61 characters; its pods' names cut to 63, as the API server's generator cuts them) must wrap, not push the other columns out.
    const long = 'checkout-service-frontend-canary-blue-green-eu-west-1-primary';
    const manifest = path.join(dir, 'long-name.yaml');
    fs.writeFileSync(manifest, fs.readFileSync(path.join(REPO_ROOT, 'examples', 'web-deployment.yaml'), 'utf8').replace(/\bweb\b/g, long));
    const { page, problems } = await open(browser(), report('long-name.html', manifest, '--duration', '10m'));
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.locator('.pods-at .grid-head [role=columnheader]:first-child', { hasText: /^NAMESPACE$/ }).waitFor();
    assert.deepEqual(await headings(page), ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'IP', 'NODE']);
    // No cell of the table, nor the box it scrolls in, reaches past the panel: nothing to scroll sideways to.
    const fitsIn = async (width: number) => {
      const { right, scrollable } = await page.evaluate<{ right: number; scrollable: number }>(`({
        right: Math.max(...Array.from(document.querySelectorAll('.pods-at [role=cell], .pods-at [role=columnheader]'), (c) => c.getBoundingClientRect().right)),
        scrollable: (() => { const box = document.querySelector('.pods-at').parentElement; return box.scrollWidth - box.clientWidth; })(),
      })`);
      assert.ok(right <= width, `a pod cell ends at ${right} px`);
      assert.equal(scrollable, 0);
    };
    await fitsIn(1400);
    // Wider than a side column but too narrow for kubectl's line (about 140 characters): two lines, the name whole on the first.
    await page.setViewportSize({ width: 800, height: 900 });
    await page.locator('.pods-at .grid-head [role=columnheader]:first-child', { hasText: /^NAME$/ }).waitFor();
    await fitsIn(800);
    assert.ok((await rowTexts(page, '.pods-at')).some((r) => r.startsWith(`pod/${long.slice(0, 58)}`)));
    await page.setViewportSize({ width: 420, height: 900 });
    await page.waitForTimeout(100);
    // Each row on two lines: what changes first, then IP, NODE and NAMESPACE under it, aligned.
    assert.deepEqual((await headings(page)).map((h) => h.split(/\s+/).join(' ')), ['NAME', 'READY', 'STATUS', 'RESTARTS', 'IP NODE NAMESPACE']);
    await fitsIn(420);
    // Narrower still (270 px: a 305 px side column less VS Code's padding), pods and nodes alike, the failed node's
    // taints shown (the run's end): the taints on a second line, the names wrapping sooner.
    await page.setViewportSize({ width: 270, height: 900 });
    await page.locator('.axis').focus();
    await page.keyboard.press('End');
    await page.locator('.nodes-at .grid-head [role=columnheader]', { hasText: /^TAINTS$/ }).waitFor();
    const narrowest = await page.evaluate<number>(`Math.max(...Array.from(document.querySelectorAll('.cursor-table [role=cell], .cursor-table [role=columnheader], .cursor-table td, .cursor-table th'), (c) => c.getBoundingClientRect().right))`);
    assert.ok(narrowest <= 270, `a cell of the kubectl tables ends at ${narrowest} px`);
    await page.setViewportSize({ width: 420, height: 900 });
    const row = page.locator('.pods-at [role=row]', { hasText: `pod/${long.slice(0, 58)}` }).first().locator('[role=cell]');
    // The row keeps its status colour in its new place; its second line names the node, IP and namespace.
    assert.match(await row.nth(2).getAttribute('class') ?? '', /^status cat-/);
    assert.match(await row.nth(4).innerText(), /^10\.\S+\s+worker-\S+\s+shop$/);
    await page.locator('vscode-panel-tab#tab-events').click();
    await page.locator('.axis').focus();
    await page.keyboard.press('End');
    await page.locator('.events-at td').first().waitFor();
    const eventRight = await page.evaluate<number>(`Math.max(...Array.from(document.querySelectorAll('.events-at td, .events-at th'), (c) => c.getBoundingClientRect().right))`);
    assert.ok(eventRight <= 420, `an event's cell ends at ${eventRight} px`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('gives a workload\'s name its room before its outcome tag: a tag that would cut the name is left out', async () => {
    const manifest = path.join(dir, 'tagged.yaml');
    fs.writeFileSync(manifest, fs.readFileSync(path.join(REPO_ROOT, 'examples', 'web-deployment.yaml'), 'utf8').replace(/\bweb\b/g, 'tol1200-payments'));
    const { page, problems } = await open(browser(), report('tagged.html', manifest, '--duration', '10m'));
    const label = page.locator('.lane-label-workload').first();
    const shown = label.locator('.name > [aria-hidden=true]');
    await page.setViewportSize({ width: 600, height: 900 });
    await label.locator('.name > [aria-hidden=true]', { hasText: /^tol1200-payments$/ }).waitFor();
    assert.equal(await label.locator('.tag').count(), 0);
    // With room for both, both.
    await page.setViewportSize({ width: 1400, height: 900 });
    await label.locator('.tag', { hasText: 'replaced' }).waitFor();
    assert.equal(await shown.innerText(), 'tol1200-payments');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('shortens workload and pod names that differ in their middle by the start they share, so that a side column tells them apart', async () => {
    const name = (n: number) => `payments-service-frontend-canary-eu-west-${n}-primary`;
    const manifest = path.join(dir, 'alike.yaml');
    fs.writeFileSync(manifest, [1, 2].map((n) => fs.readFileSync(path.join(REPO_ROOT, 'examples', 'web-deployment.yaml'), 'utf8').replace(/\bweb\b/g, name(n))).join('---\n'));
    const { page, problems } = await open(browser(), report('alike.html', manifest, '--target', `Deployment/${name(1)}`, '--duration', '10m'));
    await page.locator('vscode-checkbox').click();
    await page.setViewportSize({ width: 400, height: 900 });
    await page.waitForTimeout(100);
    const workloads = await page.locator('.lane-label-workload .name [aria-hidden=true]').allInnerTexts();
    assert.equal(workloads.length, 2);
    assert.notEqual(workloads[0], workloads[1]);
    // The start they share gives way first, as much as the width needs: the part that tells them apart stays.
    assert.ok(workloads.every((w, i) => w.includes(`…${i + 1}-`)), workloads.join(', '));
    const pods = await page.locator('.lane-label-pod .name [aria-hidden=true]').allInnerTexts();
    assert.ok(pods.length >= 2 && pods.every((p) => /^…[12]-/.test(p)), pods.join(', '));
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('gives back as much of a shared start as fits, names a pod\'s states in order for screen readers, and says when no pod exists (UI audit)', async () => {
    const name = (n: number) => `checkout-service-api-gateway-frontend-v${n}`;
    const manifest = path.join(dir, 'gateway.yaml');
    fs.writeFileSync(manifest, [2, 3].map((n) => fs.readFileSync(path.join(REPO_ROOT, 'examples', 'web-deployment.yaml'), 'utf8').replace(/\bweb\b/g, name(n))).join('---\n'));
    const { page, problems } = await open(browser(), report('gateway.html', manifest, '--failure', 'zone-outage', '--target', `Deployment/${name(2)}`, '--recover-after', '8m', '--duration', '10m'));
    await page.setViewportSize({ width: 560, height: 900 });
    await page.waitForTimeout(100);
    const workloads = await page.locator('.lane-label-workload .name [aria-hidden=true]').allInnerTexts();
    assert.deepEqual(workloads.map((w) => /^checkout-\S*…\S*v[23]$/.test(w)), [true, true], workloads.join(', '));
    assert.ok(workloads.every((w) => w.length > 12), `more than the part they differ in: ${workloads.join(', ')}`);
    assert.deepEqual(problems, []);
    await page.close();
    // A pod Running again after its node came back is "Running then Unknown then Running", not "Running then Unknown".
    const zone = await open(browser(), report('zone-back.html', 'examples', '--failure', 'zone-outage', '--cluster', 'test/fixtures/scenarios/zones.nodes.yaml', '--target', 'zone/west', '--recover-after', '8m', '--duration', '10m'), 3000);
    const spoken = await zone.page.locator('.lane-label-pod .name .sr-only').allTextContents();
    assert.ok(spoken.some((s) => /, Running then \S+ then Running$/.test(s)), spoken.join(' | '));
    await zone.page.close();
    // At the instant of a force delete the StatefulSet's only pod is gone and its new one not yet created.
    const empty = await open(browser(), report('forced.html', 'examples/postgres-statefulset.yaml', '--force-delete', 'postgres-0@6m40s', '--duration', '10m'));
    const caption = () => empty.page.locator('.cursor-table .caption').first().innerText();
    for (let i = 0; i < 200 && !(await caption()).includes('As of 6m40s after'); i++) {
      await empty.page.evaluate(`document.querySelector('.timeline').dispatchEvent(new KeyboardEvent('keydown', { key: 'PageDown', bubbles: true }))`);
      await empty.page.waitForTimeout(20);
    }
    assert.equal(await caption(), 'As of 6m40s after the failure: no pods (No resources found)');
    await empty.page.close();
  });

  /**
   * The report page with a stand-in for VS Code's API (`api`: the object acquireVsCodeApi returns, as
   * page code): the timeline runs as in a panel and gets its trace as a message (packed, as the extension sends it).
   */
  async function openAsPanel(api: string): Promise<{ page: Page; message: unknown }> {
    const html = fs.readFileSync(examples, 'utf8');
    const start = html.indexOf('>', html.indexOf('<script type="application/json" id="kfs-trace">')) + 1;
    const message: unknown = JSON.parse(html.slice(start, html.indexOf('</script>', start)));
    const page = await browser().newPage({ viewport: { width: 1000, height: 900 } });
    await page.addInitScript({ content: `window.acquireVsCodeApi = () => (${api});` });
    await page.goto(`file://${examples}`);
    await page.evaluate(`window.postMessage(${JSON.stringify(message)}, '*')`);
    await page.locator('body[data-ready=true]').waitFor({ timeout: 15_000 });
    return { page, message };
  }

  it('in a VS Code panel, a tab or a fold is kept at once (a panel hidden behind another tab is unloaded and restored from it)', async () => {
    const { page } = await openAsPanel('{ postMessage() {}, getState() {}, setState(s) { (window.__states ??= []).push(JSON.parse(JSON.stringify(s.ui))); } }');
    const lastUi = () => page.evaluate<{ tab: string; collapsed: string[] }>('window.__states[window.__states.length - 1]');
    await page.locator('vscode-panel-tab#tab-events').click();
    assert.equal((await lastUi()).tab, 'events');
    await page.locator('.lane-label-workload button.disclosure').first().click();
    assert.equal((await lastUi()).collapsed.length, 1);
    // A summary card's first line folds it: the button to its YAML sits under that line, not inside it.
    await page.locator('vscode-panel-tab#tab-summary').click();
    const card = page.locator('details.card').first();
    assert.equal(await card.locator(':scope > summary button').count(), 0);
    assert.equal(await card.locator(':scope > button.show-yaml').innerText(), 'Show the YAML of StatefulSet/kafka');
    await page.close();
  });

  it('in a VS Code panel, says when a file the run reads was edited, with Run again beside it, until the next run', async () => {
    const { page, message } = await openAsPanel('{ postMessage(m) { (window.__posted ??= []).push(m); }, getState() {}, setState() {} }');
    assert.equal(await page.locator('header .stale').count(), 0);
    // Twice: one notice.
    await page.evaluate(`window.postMessage({ type: 'inputChanged' }, '*'); window.postMessage({ type: 'inputChanged' }, '*')`);
    const notice = page.locator('header .stale[role=status]');
    await notice.waitFor({ timeout: 5_000 });
    assert.equal(await notice.count(), 1);
    assert.match(await notice.innerText(), /^A file this run reads has been edited since it ran: the timeline shows the run before the edit\.\s+Run again$/);
    await notice.locator('vscode-button').click();
    assert.deepEqual(await page.evaluate('window.__posted.filter((m) => m.type === "rerun")'), [{ type: 'rerun' }]);
    // The next run's trace replaces the page, and the notice with it; a notice of another shape is ignored.
    await page.evaluate(`window.postMessage(${JSON.stringify(message)}, '*'); window.postMessage({ type: 'inputChanged', html: '<b>x</b>' }, '*')`);
    await page.waitForTimeout(200);
    assert.equal(await page.locator('header .stale').count(), 0);
    await page.close();
  });

  it('says so when the embedded trace was changed or cut short, instead of drawing part of it', async () => {
    const html = fs.readFileSync(examples, 'utf8');
    const start = html.indexOf('<script type="application/json" id="kfs-trace">');
    const end = html.indexOf('</script>', start);
    // A packing whose string indices point past its table, and one cut in the middle.
    const wrongIndex = html.slice(0, end).replace(/"objects":\[\d+/, '"objects":[999999') + html.slice(end);
    const cut = html.slice(0, start + Math.round((end - start) / 2)) + html.slice(end);
    // A download that stopped in the middle of the trace: nothing of the page after it.
    const truncated = html.slice(0, start + Math.round((end - start) / 2));
    // One that stopped in the styles: no page at all, only the check before them.
    const inStyles = html.slice(0, html.indexOf('<style') + 5000);
    for (const [name, text] of [['wrong-index.html', wrongIndex], ['cut.html', cut], ['truncated.html', truncated], ['in-styles.html', inStyles]]) {
      assert.notEqual(text, html);
      const file = path.join(dir, name);
      fs.writeFileSync(file, text);
      const page = await browser().newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`file://${file}`);
      await page.locator('body', { hasText: 'cannot be read: the file was changed or cut short' }).waitFor({ timeout: 15_000 });
      assert.equal(await page.locator('.lanes').count(), 0, name);
      assert.deepEqual(errors, [], name);
      await page.close();
    }
  });

  it('compares two runs on one time axis: lanes of each, and the summary A → B', async () => {
    const before = exampleTrace('examples/postgres-statefulset.yaml', '--duration', '10m');
    const after = exampleTrace('examples/postgres-statefulset.yaml', '--duration', '10m', '--out-of-service-after', '1m');
    const file = path.join(dir, 'compare.html');
    const page = { title: 'power-off: postgres', report: before, compare: { title: 'with out-of-service at 1m', report: after } };
    fs.writeFileSync(file, htmlReport(page, reportAssets(path.join(REPO_ROOT, 'out', 'src', 'cli'))));
    const { page: tab, problems } = await open(browser(), file, 1400);
    assert.deepEqual(await tab.locator('.run-title').allInnerTexts(), ['A: power-off: postgres', 'B: with out-of-service at 1m']);
    // The header gives B's lines where they differ from A's: here what people did meanwhile.
    const marked = (await tab.locator('header p.scenario').allInnerTexts()).filter((l) => /^[AB]: /.test(l));
    assert.deepEqual(marked, ['A: Meanwhile: nothing.', 'B: Meanwhile: out-of-service taint on the failed nodes at 1m.']);
    // Each box a wide table scrolls in is named for its run.
    assert.deepEqual(await tab.locator('.cursor-table [role=region]').evaluateAll((boxes) => boxes.map((b) => b.getAttribute('aria-label'))), ['A: pods table', 'A: nodes table', 'B: pods table', 'B: nodes table']);
    assert.equal(await tab.locator('.lane-label-workload').count(), 2);
    await tab.locator('vscode-panel-tab#tab-summary').click();
    const rows = (await tab.locator('.comparison tbody tr').allInnerTexts()).map((r) => r.split('\t').join(' | '));
    assert.equal(rows.length, 1);
    assert.match(rows[0], /^StatefulSet\/postgres \| stuck → (replaced|recovered|stuck) \| 10m → /);
    // Each run's cards under its own name: run B's are not left out, run A's not taken for both.
    assert.deepEqual(await tab.locator('.run-heading').allInnerTexts(), ['A: power-off: postgres', 'B: with out-of-service at 1m']);
    assert.deepEqual(await tab.locator('.summary .card h3 .tag').allInnerTexts(), [before.summary.workloads[0].outcome, after.summary.workloads[0].outcome]);
    assert.notEqual(before.summary.workloads[0].unavailableMs, after.summary.workloads[0].unavailableMs);
    assert.deepEqual(problems, []);
    await tab.close();
  });

  it('compares a run where a workload is unaffected: its box shows it, and the Events tab and the keys reach run B\'s events', async () => {
    const before = exampleTrace('examples/postgres-statefulset.yaml', '--duration', '10m');
    const elsewhere = exampleTrace('examples/postgres-statefulset.yaml', '--duration', '10m', '--target', 'node/worker-c2');
    const file = path.join(dir, 'compare-unaffected.html');
    fs.writeFileSync(file, htmlReport({ title: 'A', report: before, compare: { title: 'B', report: elsewhere } }, reportAssets(path.join(REPO_ROOT, 'out', 'src', 'cli'))));
    const { page: tab, problems } = await open(browser(), file, 1400);
    assert.equal(await tab.locator('.lane-label-workload').count(), 1);
    await tab.locator('vscode-checkbox').first().click();
    await tab.locator('.lane-label-workload').nth(1).waitFor();
    await tab.locator('vscode-panel-tab#tab-events').click();
    await tab.locator('.axis').focus();
    await tab.keyboard.press('End');
    await tab.locator('.events-at td', { hasText: /^B / }).first().waitFor();
    assert.deepEqual(problems, []);
    await tab.close();
  });

  it('places the cursor where the axis is clicked, and gives the lanes their share of a taller window', async () => {
    const file = report('axis.html', 'examples', '--duration', '10m');
    const { page, problems } = await open(browser(), file, 600);
    const box = (await page.locator('svg.axis-chart').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + 10);
    const placed = await cursorMs(page);
    assert.ok(Math.abs(placed - 300_000) < 10_000, `cursor at ${placed}`);
    const short = (await page.locator('.lanes').boundingBox())!.height;
    await page.setViewportSize({ width: 1000, height: 1200 });
    // Polled from here: the page's CSP forbids the eval waitForFunction uses.
    let tall = short;
    for (let i = 0; i < 40 && tall <= short; i++) {
      await page.waitForTimeout(50);
      tall = (await page.locator('.lanes').boundingBox())!.height;
    }
    assert.ok(tall > short, `lanes ${short} px, then ${tall} px`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('lists under each workload the findings that would shorten its outage, as text in the report', async () => {
    const file = report('postgres.html', 'examples/postgres-statefulset.yaml', '--duration', '10m');
    const { page, problems } = await open(browser(), file);
    await page.locator('vscode-panel-tab#tab-summary').click();
    const items = await page.locator('.card .finding').allInnerTexts();
    assert.ok(items.length > 0);
    assert.ok(items.every((item) => /^KFS\d{3}: /.test(item)), items.join('\n'));
    assert.equal(await page.locator('.card .finding button').count(), 0, 'nothing to open in a report read from a file');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('folds each summary card to its first line in a side column, and opens it from the keyboard', async () => {
    const { page, problems } = await open(browser(), examples);
    await page.setViewportSize({ width: 420, height: 900 });
    await page.locator('vscode-panel-tab#tab-summary').click();
    const card = page.locator('details.card').first();
    assert.equal(await card.getAttribute('open'), null);
    assert.match(await card.locator(':scope > summary').innerText(), /^StatefulSet\/kafka\s+stuck\s+degraded \d+m$/);
    assert.equal(await card.locator('.reason').isVisible(), false);
    await card.locator(':scope > summary').focus();
    await page.keyboard.press('Enter');
    assert.notEqual(await card.getAttribute('open'), null);
    assert.match(await card.locator('.reason').innerText(), /^kafka-0 stays Terminating/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
