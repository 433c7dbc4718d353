/**
 * JSON paths such as `spec.template.spec.tolerations[0].tolerationSeconds`. Keys that are not
 * plain identifiers are written in brackets as JSON strings: `metadata.annotations["a/b"]`.
 */
export type PathSegment = string | number;
export type Path = readonly PathSegment[];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

export function formatPath(path: Path): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** Parses a path written by `formatPath`; throws on malformed input (paths come from code). */
export function parsePath(text: string): PathSegment[] {
  const segments: PathSegment[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '.') {
      i++;
      continue;
    }
    if (c === '[') {
      const close = text[i + 1] === '"' ? findStringEnd(text, i + 1) + 1 : text.indexOf(']', i);
      if (close < 0 || text[close] !== ']') throw new Error(`malformed path: ${text}`);
      const inner = text.slice(i + 1, close);
      segments.push(inner.startsWith('"') ? (JSON.parse(inner) as string) : Number(inner));
      i = close + 1;
      continue;
    }
    let end = i;
    while (end < text.length && text[end] !== '.' && text[end] !== '[') end++;
    segments.push(text.slice(i, end));
    i = end;
  }
  return segments;
}

function findStringEnd(text: string, quote: number): number {
  for (let i = quote + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** What a constructed YAML value holds at `path`; undefined where the path leaves its maps and lists. */
export function valueAt(value: unknown, path: Path): unknown {
  let at = value;
  for (const segment of path) at = typeof at === 'object' && at !== null ? (at as Record<PathSegment, unknown>)[segment] : undefined;
  return at;
}

export function toPath(path: string | Path): Path {
  return typeof path === 'string' ? parsePath(path) : path;
}
