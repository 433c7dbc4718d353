/**
 * Debian's Chromium driven by playwright-core (never `playwright install`). Suites that need it
 * skip, with one line saying why, where /usr/bin/chromium is absent (`apt-get install chromium`).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { REPO_ROOT } from '../support/shared';

export const CHROMIUM = process.env.KFS_CHROMIUM ?? '/usr/bin/chromium';

let absenceReported = false;

export function describeWithChromium(title: string, body: (browser: () => Browser) => void): void {
  if (!fs.existsSync(CHROMIUM)) {
    if (!absenceReported) console.log(`Skipping the browser tests: ${CHROMIUM} is absent (apt-get install chromium).`);
    absenceReported = true;
    describe(title, () => it(`skipped: ${CHROMIUM} is absent`, function () {
      this.skip();
    }));
    return;
  }
  describe(title, function () {
    this.timeout(60_000);
    let browser: Browser | undefined;
    before(async () => {
      // The pages inline the webview bundle: build it from the current sources (esbuild, well under a second).
      execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO_ROOT });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    });
    after(async () => browser?.close());
    body(() => browser!);
  });
}
