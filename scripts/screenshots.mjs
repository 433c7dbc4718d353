// Screenshots of the timeline for README.md, taken from the real webview bundle: the HTML report
// of example runs in Debian's headless Chromium (/usr/bin/chromium). `npm run screenshots`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const dir = mkdtempSync(join(tmpdir(), 'kfs-shots-'));
const shots = [
  {
    name: 'timeline-examples-dark.png', width: 1280, height: 900, scheme: 'dark', cursorMs: 400_000,
    args: ['examples', '--duration', '10m'],
  },
  {
    name: 'timeline-partition-side.png', width: 560, height: 1000, scheme: 'light', cursorMs: 490_000,
    args: ['examples/web-deployment.yaml', '--failure', 'partition', '--recover-after', '8m', '--duration', '12m'],
  },
  {
    name: 'timeline-statefulset-summary.png', width: 1000, height: 1300, scheme: 'light', cursorMs: 420_000, tab: 'summary',
    args: ['examples/postgres-statefulset.yaml', '--duration', '10m', '--force-delete', 'postgres-0@6m40s'],
  },
];

execFileSync(process.execPath, ['scripts/build.mjs', '--production'], { stdio: 'inherit' });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const shot of shots) {
    const file = join(dir, shot.name.replace('.png', '.html'));
    execFileSync(process.execPath, ['dist/cli.js', 'simulate', ...shot.args, '--format', 'html', '-o', file], { stdio: 'inherit' });
    const page = await browser.newPage({ viewport: { width: shot.width, height: shot.height }, colorScheme: shot.scheme, deviceScaleFactor: 1 });
    await page.goto(`file://${file}`);
    await page.locator('body[data-ready=true]').waitFor();
    // Place the cursor like a user would: click the lanes at that time.
    const box = await page.locator('svg.lane-chart').boundingBox();
    const end = Number(await page.locator('.axis').getAttribute('aria-valuemax')) * 1000;
    await page.mouse.click(box.x + (shot.cursorMs / end) * box.width, box.y + 10);
    if (shot.tab) await page.locator(`vscode-panel-tab#tab-${shot.tab}`).click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join('media', shot.name) });
    console.log(`media/${shot.name}`);
    await page.close();
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
