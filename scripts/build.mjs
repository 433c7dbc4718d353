// Bundles the extension (Node and browser) with its workers, the webview and the CLI with esbuild.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';

const production = process.argv.includes('--production');
const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  target: 'es2022',
  logLevel: 'warning',
};

const bundles = [
  { ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', external: ['vscode'] },
  { ...common, entryPoints: ['src/extension/webExtension.ts'], outfile: 'dist/web/extension.js', platform: 'browser', format: 'cjs', external: ['vscode'] },
  // Analysis and simulation run off the extension host's thread: a worker thread on desktop, a Web Worker in the browser.
  { ...common, entryPoints: ['src/extension/worker/nodeWorker.ts'], outfile: 'dist/worker.js', platform: 'node', format: 'cjs' },
  { ...common, entryPoints: ['src/extension/worker/webWorker.ts'], outfile: 'dist/web/worker.js', platform: 'browser', format: 'iife' },
  { ...common, entryPoints: ['src/cli/cli.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs' },
  // V8's explicit compile hint: the timeline's functions are compiled with the script, not each on its first call (Chromium 136+; others ignore the comment).
  { ...common, entryPoints: ['webview/main.ts'], outfile: 'dist/webview/main.js', platform: 'browser', format: 'iife', banner: { js: '//# allFunctionsCalledOnLoad' } },
  // The UI toolkit on its own: the timeline loads it after its first paint (webview/loadControls.ts).
  { ...common, entryPoints: ['webview/toolkit.ts'], outfile: 'dist/webview/toolkit.js', platform: 'browser', format: 'iife' },
];

await Promise.all(bundles.map((options) => build(options)));
chmodSync('dist/cli.js', 0o755);
