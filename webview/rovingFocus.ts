/**
 * A toolbar as one Tab stop (the WAI-ARIA toolbar pattern): ←/→ move the focus among its
 * controls, wrapping, and Home/End go to the first and last; Tab leaves it from the control
 * last focused, which is where it returns. `defined`: the toolkit's elements are defined.
 */
export function rovingFocus(toolbar: HTMLElement, defined: Promise<void>): void {
  const items = () => [...toolbar.children] as HTMLElement[];
  const makeCurrent = (current: HTMLElement) => {
    for (const item of items()) item.tabIndex = item === current ? 0 : -1;
  };
  const [first] = items();
  if (first) makeCurrent(first);
  // A toolkit control sets its own tabindex once it is defined: the current one is made so again.
  void defined.then(() => makeCurrent(items().find((i) => i.tabIndex === 0 && i.contains(document.activeElement)) ?? items().find((i) => i.tabIndex === 0) ?? first));
  toolbar.addEventListener('focusin', (event) => {
    const item = items().find((i) => i.contains(event.target as Node));
    if (item) makeCurrent(item);
  });
  toolbar.addEventListener('keydown', (event) => {
    const list = items();
    const index = list.findIndex((i) => i.contains(document.activeElement));
    if (index < 0) return;
    const next = { ArrowRight: (index + 1) % list.length, ArrowLeft: (index - 1 + list.length) % list.length, Home: 0, End: list.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    list[next].focus();
  });
}
