/**
 * Where the timeline runs: in a VS Code webview (messages and state through acquireVsCodeApi) or
 * in the self-contained HTML report (the trace embedded in the page, no host to talk to).
 */
import { showBidiControlsInJson, withBidiControlsShown } from '../src/report/bidiControls';
import { EMBEDDED_TRACE_ID, UNREADABLE_TRACE } from '../src/report/embeddedTrace';
import { isHostMessage, isHostNotice, type HostMessage, type HostNotice, type WebviewMessage } from './protocol';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare const acquireVsCodeApi: (() => VsCodeApi) | undefined;

export interface Host {
  /** False in the HTML report: nothing can reveal YAML or run the simulation again. */
  readonly interactive: boolean;
  post(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}


export function connectHost(onMessage: (message: HostMessage) => void, onNotice: (notice: HostNotice) => void = () => undefined): Host {
  if (typeof acquireVsCodeApi === 'function') {
    const api = acquireVsCodeApi();
    window.addEventListener('message', (event: MessageEvent) => {
      // Only the extension posts to a webview; the check still guards the shape of what arrives.
      if (isHostMessage(event.data)) onMessage(withBidiControlsShown(event.data));
      else if (isHostNotice(event.data)) onNotice(event.data);
    });
    return { interactive: true, post: (m) => api.postMessage(m), getState: () => api.getState(), setState: (s) => api.setState(s) };
  }
  let state: unknown;
  const host: Host = { interactive: false, post: () => undefined, getState: () => state, setState: (s) => (state = s) };
  const embedded = document.getElementById(EMBEDDED_TRACE_ID)?.textContent;
  if (embedded) {
    const started = performance.now();
    const message = readEmbedded(embedded);
    const valid = isHostMessage(message);
    performance.measure('kfs:trace', { start: started });
    if (valid) queueMicrotask(() => onMessage(message as HostMessage));
    else document.getElementById('root')?.replaceChildren(UNREADABLE_TRACE);
  }
  return host;
}

/** The page's message (src/report/htmlReport.ts packs its traces), bidirectional controls shown; undefined: unreadable. */
function readEmbedded(text: string): unknown {
  try {
    return JSON.parse(showBidiControlsInJson(text));
  } catch {
    return undefined;
  }
}
