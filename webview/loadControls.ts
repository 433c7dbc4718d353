/**
 * Loads the toolkit bundle (webview/toolkit.ts) once the timeline is on screen: from the URI the
 * panel's page names, or, in the HTML report, from the inert copy the page carries. Either way a
 * script element with the page's nonce, so the Content Security Policy stays nonce-only.
 */
export const CONTROLS_SRC_META = 'kfs-controls-src';
export const CONTROLS_CODE_ID = 'kfs-controls-code';

/** The nonce of the script that is running now (read at start: currentScript is null later). */
const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';

export function loadControls(): Promise<void> {
  const script = document.createElement('script');
  script.nonce = nonce;
  script.id = 'kfs-controls';
  const src = document.querySelector(`meta[name="${CONTROLS_SRC_META}"]`)?.getAttribute('content');
  const code = document.getElementById(CONTROLS_CODE_ID)?.textContent;
  if (src) script.src = src;
  else if (code) script.textContent = code;
  else return Promise.resolve();
  document.head.appendChild(script);
  return customElements.whenDefined('vscode-panels').then(() => undefined);
}
