/**
 * Every use of @vscode/webview-ui-toolkit sits here: upstream deprecated it on 2025-01-01 and we
 * may swap it for @vscode-elements/elements, which should then touch this file only. The rest of
 * the webview asks for controls by what they do; labels are set as text.
 */
import {
  provideVSCodeDesignSystem, vsCodeButton, vsCodeCheckbox, vsCodePanels, vsCodePanelTab, vsCodePanelView,
} from '@vscode/webview-ui-toolkit';

let registered = false;

/**
 * No vscode-badge: its template carries a style attribute, which a strict CSP (no
 * 'unsafe-inline') reports as a violation; outcome tags are plain spans styled by our CSS.
 */
export function registerControls(): void {
  if (registered) return;
  registered = true;
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeCheckbox(), vsCodePanels(), vsCodePanelTab(), vsCodePanelView());
}

export function button(label: string, onClick: () => void, options: { ariaLabel?: string; title?: string; secondary?: boolean } = {}): HTMLElement {
  const element = document.createElement('vscode-button');
  element.textContent = label;
  if (options.secondary) element.setAttribute('appearance', 'secondary');
  if (options.ariaLabel) element.setAttribute('aria-label', options.ariaLabel);
  if (options.title) element.title = options.title;
  element.addEventListener('click', onClick);
  return element;
}

export function checkbox(label: string, checked: boolean, onChange: (checked: boolean) => void): HTMLElement {
  const element = document.createElement('vscode-checkbox') as HTMLElement & { checked: boolean };
  element.textContent = label;
  element.checked = checked;
  element.addEventListener('change', () => onChange(element.checked));
  return element;
}

export interface Tab {
  id: string;
  label: string;
  content: HTMLElement;
}

/** Tabs with their panels; `onSelect` tells which tab the user chose (to keep it across reloads). */
export function tabs(list: Tab[], selected: string, onSelect: (id: string) => void): HTMLElement {
  const panels = document.createElement('vscode-panels');
  panels.setAttribute('activeid', `tab-${selected}`);
  for (const tab of list) {
    const header = document.createElement('vscode-panel-tab');
    header.id = `tab-${tab.id}`;
    header.textContent = tab.label;
    panels.appendChild(header);
  }
  for (const tab of list) {
    const view = document.createElement('vscode-panel-view');
    view.id = `view-${tab.id}`;
    view.appendChild(tab.content);
    panels.appendChild(view);
  }
  panels.addEventListener('change', (event) => {
    // The event's detail is the newly active tab (the activeid attribute is reflected later).
    if (event.target !== panels) return;
    const active = (event as CustomEvent<HTMLElement | undefined>).detail?.id;
    if (active && active.startsWith('tab-')) onSelect(active.slice(4));
  });
  return panels;
}
