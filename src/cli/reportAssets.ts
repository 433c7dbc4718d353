/**
 * The files the HTML report inlines: the webview bundle (built by scripts/build.mjs) and its
 * stylesheets. Found next to the bundled CLI (dist/cli.js) or, for the tsc-compiled tests, in the
 * repository's dist/ and media/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ReportAssets } from '../report/htmlReport';

function find(candidates: string[]): string {
  const found = candidates.find((file) => fs.existsSync(file));
  if (!found) throw new Error(`cannot find ${path.basename(candidates[0])} (looked in ${candidates.map((c) => path.dirname(c)).join(', ')}); run npm run build`);
  return found;
}

export function reportAssets(from = __dirname): ReportAssets {
  // dist/cli.js -> dist/webview, media; out/src/cli/*.js -> ../../../dist/webview, ../../../media
  const roots = [path.resolve(from, '..'), path.resolve(from, '..', '..', '..')];
  const bundle = (name: string) => fs.readFileSync(find([path.join(from, 'webview', name), ...roots.map((root) => path.join(root, 'dist', 'webview', name))]), 'utf8');
  const style = (name: string) => fs.readFileSync(find(roots.map((root) => path.join(root, 'media', name))), 'utf8');
  return { script: bundle('main.js'), controls: bundle('toolkit.js'), styles: [style('report-theme.css'), style('timeline.css')] };
}
