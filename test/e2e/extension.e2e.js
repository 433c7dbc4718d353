// The packaged extension in code-server, driven by Debian Chromium through playwright-core.
// Run by test/e2e/run.sh (npm run test:e2e); exit code 0 = pass. Helpers from ../shared/tools/vscode-e2e/e2e.js.
const { chromium } = require('playwright-core');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const URL = process.env.CS_URL || 'http://127.0.0.1:8780/';
const SHOTS = process.env.SHOTS || path.join(os.tmpdir(), 'e2e-shots');
const WORKSPACE = process.env.WORKSPACE; // the folder code-server opened (run.sh)
const t0 = Date.now();
const log = (m) => console.log(`[e2e +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

// Quick Open (Ctrl+P) a workspace file. Results come from the server's ripgrep a few seconds after
// the workbench appears; until then only "recently opened" rows show, so wait for the file's row.
async function quickOpen(page, name, tries = 3) {
  const input = page.locator('.quick-input-widget input');
  for (let i = 1; i <= tries; i++) {
    await page.keyboard.press('Control+P');
    await input.waitFor({ state: 'visible' });
    await input.fill(name);
    try {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 10000 });
      await page.keyboard.press('Enter');
      await page.locator(`.tabs-container .tab.active[data-resource-name="${path.basename(name)}"]`).first().waitFor({ timeout: 10000 });
      return;
    } catch (e) {
      if (i === tries) throw e;
      await page.keyboard.press('Escape');
    }
  }
}

/** Types into the open quick pick and accepts once a row shows the text. */
async function pick(page, text, filter = text) {
  await page.locator('.quick-input-widget input').fill(filter);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().waitFor();
  await page.keyboard.press('Enter');
}

/** Ctrl+G to a line:column of the active editor. */
async function goTo(page, where) {
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await page.locator('.quick-input-widget input').fill(':' + where);
  await page.keyboard.press('Enter');
}

/** Moves the focus down a list until the focused row's label starts with the text, then accepts it. */
async function chooseFocusedRow(page, rows, labelStart) {
  for (let i = 0; i < 30; i++) {
    const label = await page.locator(`${rows}.focused`).first().getAttribute('aria-label').catch(() => null);
    if (label && label.startsWith(labelStart)) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`no row "${labelStart}…" in ${rows}`);
}

async function runCommand(page, title, filter = title) {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await pick(page, title, '>' + filter);
}

/** Simulates a power-off for the open file and returns the webview frame once its timeline and summary show. */
async function simulatePowerOff(page, workload) {
  await runCommand(page, 'Kubernetes Failure Simulator: Simulate Node Failure…', 'Kubernetes Failure Simulator: Simulate Node Failure');
  // The guided picks: the failure, the workload's node, never back, no intervention.
  await pick(page, 'Power off the node', 'Power off');
  await pick(page, 'The node that runs', 'The node that runs');
  await pick(page, 'The node never comes back', 'never');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Force-delete the stuck pods' }).first().waitFor();
  await page.keyboard.press('Enter');
  // The version (the setting's first) and the preset, by label when the caller names one.
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Kubernetes 1.' }).first().waitFor();
  await page.keyboard.press('Enter');
  if (workload.preset) await pick(page, workload.preset);
  else {
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'no preset' }).first().waitFor();
    await page.keyboard.press('Enter');
  }
  const frame = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  await frame.locator('h1', { hasText: workload.file }).waitFor({ timeout: 30000 });
  await frame.locator('body[data-ready=true]').waitFor({ timeout: 30000 });
  await frame.locator('vscode-panel-tab#tab-summary').click();
  const summary = (await frame.locator('.summary .card').first().innerText()).replace(/\s+/g, ' ');
  log(`${workload.file}: ${summary}`);
  await frame.locator('vscode-panel-tab#tab-cursor').click();
  return { frame, summary };
}

(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1400, height: 900 },
  });
  const page = context.pages()[0] || await context.newPage();
  page.on('pageerror', (e) => console.log('pageerror:', e.message));
  let ok = false;
  try {
    await page.goto(URL);
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60000 });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60000 });
    log('workbench ready');

    // Diagnostics on the exact flag of a kube-controller-manager static-pod manifest.
    await quickOpen(page, 'kube-controller-manager.yaml');
    await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ timeout: 30000 });
    await page.keyboard.press('Control+Shift+M');
    const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'KFS060' });
    await problem.first().waitFor({ timeout: 30000 });
    const row = (await problem.first().innerText()).replace(/\s+/g, ' ');
    log('Problems row: ' + row);
    assert.match(row, /pod-eviction-timeout=30s has no effect.*\[Ln 23, Col 11\]/);
    await page.screenshot({ path: `${SHOTS}/01-diagnostics.png` });
    await page.keyboard.press('Control+Shift+M');

    // Simulation in the timeline webview: a Deployment is replaced, a StatefulSet pod stays stuck.
    await quickOpen(page, 'web-deployment.yaml');
    const web = await simulatePowerOff(page, { file: 'web-deployment.yaml' });
    assert.match(web.summary, /^Deployment\/web replaced Unavailable 0s /);
    assert.ok(await web.frame.locator('.lane-label-pod').count() >= 3);
    // The cursor moves by keyboard and the kubectl table follows it.
    await web.frame.locator('.axis').focus();
    await page.keyboard.press('End');
    await web.frame.locator('.cursor-table .caption', { hasText: 'As of 20:00.000' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/02-timeline-web.png` });
    // A pod name shows its workload's YAML: the editor selects metadata.name of the Deployment.
    await web.frame.locator('.lane-label-pod button').first().click();
    await page.locator('.monaco-editor .selected-text').first().waitFor({ timeout: 10000 });
    await page.locator('.monaco-editor .view-line', { hasText: 'name: web' }).first().waitFor();
    await web.frame.locator('vscode-button', { hasText: 'Run again' }).click();
    await web.frame.locator('body[data-ready=true]').waitFor();
    // Before/after: the run before Run Again on the same time axis, titled A and B.
    await web.frame.locator('vscode-button', { hasText: 'Compare with…' }).click();
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'The run before the last Run Again' }).first().waitFor();
    await page.keyboard.press('Enter');
    await web.frame.locator('.run-title', { hasText: 'B: ' }).waitFor({ timeout: 10000 });
    assert.equal(await web.frame.locator('.run-title').count(), 2);
    await page.screenshot({ path: `${SHOTS}/02b-compare.png` });
    // The same failure under the fast preset: a panel of its own, which compares with the run without a preset.
    await quickOpen(page, 'web-deployment.yaml');
    await page.locator('.monaco-editor .view-line', { hasText: 'name: web' }).first().click(); // the YAML editor, not the timeline, has the focus
    const fast = await simulatePowerOff(page, { file: 'web-deployment.yaml', preset: 'Fast failure detection (preset fast)' });
    await fast.frame.locator('vscode-button', { hasText: 'Compare with…' }).click();
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'no preset' }).first().waitFor();
    await pick(page, 'no preset', 'no preset');
    await fast.frame.locator('.run-title', { hasText: 'B: ' }).waitFor({ timeout: 10000 });
    const titles = await fast.frame.locator('.run-title').allInnerTexts();
    log('compare presets: ' + titles.join(' | '));
    assert.match(titles.join(' '), /preset fast.*no preset/s);
    await page.screenshot({ path: `${SHOTS}/02c-compare-presets.png` });

    // The editor features on a single-replica StatefulSet: CodeLens, status bar, diagnostic with its docs link, hover, quick fix.
    await quickOpen(page, 'postgres-statefulset.yaml');
    const lens = page.locator('.contentWidgets .codelens-decoration a', { hasText: 'If its node fails: stuck until someone acts' });
    await lens.first().waitFor({ timeout: 30000 });
    const status = page.locator('.statusbar-item', { hasText: 'Node failure: stuck until someone acts' });
    await status.first().waitFor({ timeout: 10000 });
    log('CodeLens: ' + (await lens.first().innerText()) + ' | status bar: ' + (await status.first().innerText()));
    await page.keyboard.press('Control+Shift+M');
    const kfs002 = page.locator('.markers-panel .monaco-list-row', { hasText: 'KFS002' });
    await kfs002.first().waitFor({ timeout: 30000 });
    assert.match((await kfs002.first().innerText()).replace(/\s+/g, ' '), /Down until the node returns or someone acts if its node fails.*\[Ln 21, Col 13\]/);
    // VS Code renders a diagnostic's code with a target as a link (a.monaco-link) beside the source.
    assert.ok(await page.locator('.markers-panel .monaco-list-row a', { hasText: 'KFS002' }).count() > 0, 'the rule id links to its docs');
    await page.screenshot({ path: `${SHOTS}/03-problems-statefulset.png` });
    await page.keyboard.press('Control+Shift+M');

    await goTo(page, '21:14');
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    const hover = page.locator('.monaco-hover-content', { hasText: 'replicas: 1' });
    await hover.first().waitFor({ timeout: 15000 });
    const hoverText = (await hover.first().innerText()).replace(/\s+/g, ' ');
    log('Hover: ' + hoverText.slice(0, 160));
    assert.match(hoverText, /If its node fails.*power-off of worker-a1/);
    assert.ok(await hover.first().locator('a', { hasText: 'Simulate node failure' }).count() > 0);
    await page.screenshot({ path: `${SHOTS}/03c-hover-replicas.png` });
    await page.keyboard.press('Escape');

    await page.keyboard.press('Control+.');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Set replicas: 2 (outage if a node fails: until someone acts → 0s)' });
    await fix.first().waitFor({ timeout: 15000 });
    await page.screenshot({ path: `${SHOTS}/03d-quick-fix.png` });
    // The light bulb menu lays a pointer block over the page: choose by keyboard, as a user does.
    await chooseFocusedRow(page, '.action-widget .monaco-list-row', 'Set replicas: 2 (');
    await page.locator('.view-line', { hasText: 'replicas: 2' }).first().waitFor({ timeout: 10000 });
    await page.locator('.statusbar-item', { hasText: 'Node failure: no outage' }).first().waitFor({ timeout: 15000 });
    log('quick fix applied: replicas: 2, status bar says no outage');
    await page.keyboard.press('Control+Z');
    await lens.first().waitFor({ timeout: 15000 });

    // The CodeLens runs its workload's default scenario at once.
    await lens.first().click();
    const fromLens = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    await fromLens.locator('h1', { hasText: 'postgres-statefulset.yaml' }).waitFor({ timeout: 30000 });
    await fromLens.locator('body[data-ready=true]').waitFor({ timeout: 30000 });
    log('timeline opened from the CodeLens');

    await quickOpen(page, 'postgres-statefulset.yaml');
    const db = await simulatePowerOff(page, { file: 'postgres-statefulset.yaml' });
    assert.match(db.summary, /^StatefulSet\/postgres stuck /);
    await page.screenshot({ path: `${SHOTS}/03-timeline-statefulset.png` });
    // "What would shorten it": a finding opens at its YAML, selected, in the editor that shows it.
    await db.frame.locator('vscode-panel-tab#tab-summary').click();
    await db.frame.locator('.finding:has(.fix) button').first().click();
    await page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+ \(\d+ selected\)/ }).first().waitFor({ timeout: 10000 });
    await page.screenshot({ path: `${SHOTS}/03b-finding.png` });
    await page.keyboard.press('Escape');

    // The editor stays responsive while a long simulation runs in its worker: the test-only setting keeps the
    // simulation worker busy for 20 s (as a very large cluster would); meanwhile an edit is analysed and a hover
    // answered. The progress notification (shown after 300 ms) cancels the run.
    const workspaceSettings = path.join(WORKSPACE, '.vscode', 'settings.json');
    fs.mkdirSync(path.dirname(workspaceSettings), { recursive: true });
    fs.writeFileSync(workspaceSettings, JSON.stringify({ 'kubeFailureSim.testing.simulationDelayMs': 20000 }));
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: '.vscode' }).first().waitFor({ timeout: 10000 });
    await page.waitForTimeout(1000); // VS Code reads the new settings.json
    await quickOpen(page, 'postgres-statefulset.yaml');
    await lens.first().click();
    const progress = page.locator('.notifications-toasts .notification-toast', { hasText: 'Simulating power-off' });
    await progress.first().waitFor({ timeout: 10000 });
    const simulationShown = Date.now();
    await page.locator('.monaco-editor .view-line', { hasText: 'replicas: 1' }).first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n# typed while the simulation runs');
    await goTo(page, '21:14');
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    await page.locator('.monaco-hover-content', { hasText: 'replicas: 1' }).first().waitFor({ timeout: 10000 });
    assert.ok(await progress.first().isVisible(), 'the simulation still runs when the hover shows');
    log(`hover answered ${((Date.now() - simulationShown) / 1000).toFixed(1)} s into a simulation that keeps its worker busy for 20 s`);
    await page.screenshot({ path: `${SHOTS}/05-hover-during-simulation.png` });
    // (Escape would hide the notification toasts too.)
    await progress.first().locator('.monaco-button', { hasText: 'Cancel' }).click();
    await progress.first().waitFor({ state: 'detached', timeout: 5000 });
    log('long simulation cancelled from its notification');
    fs.rmSync(path.dirname(workspaceSettings), { recursive: true });
    await runCommand(page, 'File: Revert File');

    // A name that looks like HTML is shown as that text, and nothing from it runs.
    await quickOpen(page, 'hostile.yaml');
    const hostile = await simulatePowerOff(page, { file: 'hostile.yaml' });
    assert.ok(hostile.summary.includes("<img src=x onerror=document.title='pwned'><b>bold</b>"));
    assert.ok((await hostile.frame.locator('.lane-label-workload').first().innerText()).includes('<img src=x'));
    assert.equal(await hostile.frame.locator('img, b').count(), 0);
    assert.notEqual(await page.title(), 'pwned');
    await page.screenshot({ path: `${SHOTS}/04-hostile-name.png` });

    // After a window reload the panel comes back from the state the webview kept (serializer).
    await runCommand(page, 'Developer: Reload Window');
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60000 });
    const revived = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    await revived.locator('h1', { hasText: 'hostile.yaml' }).waitFor({ timeout: 30000 });
    await revived.locator('.lane-label-workload').first().waitFor({ timeout: 30000 });
    log('panel revived after reload');
    ok = true;
  } catch (e) {
    console.error('E2E FAILED:', e);
    await page.screenshot({ path: `${SHOTS}/99-failure.png` }).catch(() => {});
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  log(ok ? 'E2E PASSED' : 'E2E FAILED');
  process.exit(ok ? 0 : 1);
})();
