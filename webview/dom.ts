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

/** The longest value of each column, in characters. */
export function columnWidths(headings: string[], rows: string[][]): number[] {
  return headings.map((h, c) => rows.reduce((max, row) => Math.max(max, row[c].length), h.length));
}

/** Rows per block of a grid table: a block is built once it comes near the view, and skips layout and paint out of it. */
const BLOCK_ROWS = 64;
/** A line's height before its block is built (line-height 1.45 of a 12-13 px font, timeline.css). */
const LINE_PX = 18;

export type CellClass = (row: number, column: number) => string | undefined;

export interface GridLayout {
  /** The rows' grid-template-columns; by default one track per column, as wide as `widths` says in `ch`. */
  columns?: string;
  /** Lines per row, for the height of rows not built yet. */
  lines?: number;
}

/**
 * A table as ARIA grid rows in monospace columns sized in `ch` to the longest value. Its rows
 * are built a block at a time as they come within a screen of the view, so a cursor step over a
 * 15,000-pod `kubectl get` builds the rows in sight rather than 100,000 cells; rows built are
 * updated in place while the same objects are listed (update).
 */
export class GridTable {
  readonly element = el('div', undefined, 'grid-table');
  private readonly columns: string;
  /** Cells of the rows built so far, by row. */
  private readonly cells: (HTMLElement[] | undefined)[] = [];
  /** The first row of each block not built yet. */
  private readonly blockStart = new Map<Element, number>();
  private readonly observer: IntersectionObserver | undefined;

  private readonly rowPx: number;

  constructor(label: string, headings: string[], widths: number[], private rows: string[][], private cellClass?: CellClass, layout: GridLayout = {}) {
    this.columns = layout.columns ?? widths.map((w) => `${w}ch`).join(' ');
    this.rowPx = (layout.lines ?? 1) * LINE_PX;
    const grid = this.element;
    grid.setAttribute('role', 'table');
    grid.setAttribute('aria-label', label);
    grid.setAttribute('aria-rowcount', String(rows.length + 1));
    grid.appendChild(this.row(headings, 0, true));
    if (typeof IntersectionObserver === 'function' && rows.length > BLOCK_ROWS) {
      this.observer = new IntersectionObserver((entries) => {
        for (const entry of entries) if (entry.isIntersecting) this.build(entry.target as HTMLElement);
      }, { rootMargin: '100% 0px' });
    }
    for (let start = 0; start < rows.length; start += BLOCK_ROWS) {
      const block = el('div', undefined, 'grid-block');
      block.setAttribute('role', 'rowgroup');
      this.blockStart.set(block, start);
      grid.appendChild(block);
      if (start === 0 || !this.observer) this.build(block);
      else {
        block.style.height = `${(Math.min(rows.length, start + BLOCK_ROWS) - start) * this.rowPx}px`;
        this.observer.observe(block);
      }
    }
  }

  /** The same rows with new values: the cells built get them now, the others when they are built. */
  update(rows: string[][], cellClass?: CellClass): void {
    this.rows = rows;
    this.cellClass = cellClass;
    this.cells.forEach((cells, r) => cells?.forEach((cell, c) => {
      const text = rows[r][c];
      if (cell.textContent !== text) cell.textContent = text;
      const className = cellClass?.(r, c) ?? '';
      if (cell.className !== className) cell.className = className;
    }));
  }

  /** Stops watching for blocks to build (the table is being replaced). */
  dispose(): void {
    this.observer?.disconnect();
  }

  private build(block: HTMLElement): void {
    this.observer?.unobserve(block);
    // An entry the observer queued before the block was built would build it twice.
    const start = this.blockStart.get(block);
    if (start === undefined) return;
    this.blockStart.delete(block);
    const end = Math.min(this.rows.length, start + BLOCK_ROWS);
    block.style.height = '';
    // The height a skipped block stands in with: about its rows' (corrected once it has been shown).
    block.style.containIntrinsicSize = `auto ${(end - start) * this.rowPx}px`;
    for (let r = start; r < end; r++) block.appendChild(this.row(this.rows[r], r + 1, false));
  }

  private row(cells: string[], index: number, header: boolean): HTMLElement {
    const line = el('div', undefined, header ? 'grid-row grid-head' : 'grid-row');
    line.setAttribute('role', 'row');
    line.setAttribute('aria-rowindex', String(index + 1));
    line.style.gridTemplateColumns = this.columns;
    const built = cells.map((text, c) => {
      const cell = el('span', text, header ? undefined : this.cellClass?.(index - 1, c));
      cell.setAttribute('role', header ? 'columnheader' : 'cell');
      line.appendChild(cell);
      return cell;
    });
    if (!header) this.cells[index - 1] = built;
    return line;
  }
}
