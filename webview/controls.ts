/**
 * The toolkit's elements by tag name: buttons, a checkbox, tabs. They are defined by
 * webview/toolkit.ts, a bundle of its own loaded right after the first paint (evaluating the
 * toolkit takes longer than drawing the timeline); until then they are hidden by the stylesheet.
 * Labels are set as text.
 */
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
  // An attribute, not the property: the element may not be defined yet.
  if (checked) element.setAttribute('checked', '');
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
