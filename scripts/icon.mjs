// Rasterises media/icon.svg to media/icon.png (128 x 128, transparent corners) in Debian's Chromium.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync('media/icon.svg', 'utf8');
const browser = await chromium.launch({ executablePath: process.env.KFS_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<!DOCTYPE html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: 'media/icon.png', omitBackground: true });
} finally {
  await browser.close();
}
