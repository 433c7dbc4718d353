/** DOM helpers that only ever set text as text (textContent, text nodes), never as markup. */
const SVG_NS = 'http://www.w3.org/2000/svg';

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number> = {}, className?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (className) node.setAttribute('class', className);
  return node;
}

export function svgText(x: number, y: number, text: string, className?: string): SVGTextElement {
  const node = svg('text', { x, y }, className);
  node.textContent = text;
  return node;
}

/** A tooltip for an SVG shape: a <title> child with the text. */
export function withTitle<E extends SVGElement>(shape: E, text: string): E {
  const title = svg('title');
  title.textContent = text;
  shape.appendChild(title);
  return shape;
}

export function table(headings: string[], rows: string[][], cellClass?: (row: number, column: number) => string | undefined): HTMLTableElement {
  const element = el('table');
  const head = element.createTHead().insertRow();
  for (const heading of headings) {
    const th = el('th', heading);
    th.scope = 'col';
    head.appendChild(th);
  }
  const body = element.createTBody();
  rows.forEach((cells, r) => {
    const row = body.insertRow();
    cells.forEach((cell, c) => {
      const td = el('td', cell);
      const cls = cellClass?.(r, c);
      if (cls) td.className = cls;
      row.appendChild(td);
    });
  });
  return element;
}
