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
  // for...in, not Object.entries: this runs for every shape drawn, a few hundred before the first paint.
  for (const name in attributes) node.setAttribute(name, String(attributes[name]));
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

/** Rows per block of a grid table: blocks out of view skip layout and paint (content-visibility). */
const BLOCK_ROWS = 64;

/** The longest value of each column, in characters. */
export function columnWidths(headings: string[], rows: string[][]): number[] {
  return headings.map((h, c) => rows.reduce((max, row) => Math.max(max, row[c].length), h.length));
}

/**
 * A table as ARIA grid rows in monospace columns sized in `ch` to the longest value, in blocks
 * the browser may skip while they are out of view: a 1,000-pod `kubectl get` rebuilt on every
 * cursor step costs a few milliseconds instead of a full table layout.
 */
export function gridTable(label: string, headings: string[], rows: string[][], cellClass?: (row: number, column: number) => string | undefined, widths = columnWidths(headings, rows)): HTMLElement {
  const columns = widths.map((w) => `${w + 2}ch`).join(' ');
  const grid = el('div', undefined, 'grid-table');
  grid.setAttribute('role', 'table');
  grid.setAttribute('aria-label', label);
  grid.setAttribute('aria-rowcount', String(rows.length + 1));
  const row = (cells: string[], index: number, header: boolean) => {
    const line = el('div', undefined, header ? 'grid-row grid-head' : 'grid-row');
    line.setAttribute('role', 'row');
    line.setAttribute('aria-rowindex', String(index + 1));
    line.style.gridTemplateColumns = columns;
    cells.forEach((text, c) => {
      const cell = el('span', text, header ? undefined : cellClass?.(index - 1, c));
      cell.setAttribute('role', header ? 'columnheader' : 'cell');
      line.appendChild(cell);
    });
    return line;
  };
  grid.appendChild(row(headings, 0, true));
  for (let start = 0; start < rows.length; start += BLOCK_ROWS) {
    const block = el('div', undefined, 'grid-block');
    block.setAttribute('role', 'rowgroup');
    const end = Math.min(rows.length, start + BLOCK_ROWS);
    // The height a skipped block stands in with: about its rows' (corrected once it has been shown).
    block.style.containIntrinsicSize = `auto ${(end - start) * 18}px`;
    for (let r = start; r < end; r++) block.appendChild(row(rows[r], r + 1, false));
    grid.appendChild(block);
  }
  return grid;
}
