import { EVENT_ID, type Event } from './yaml';

/**
 * Finds a template expression (`{{ ... }}`, as in Helm charts) that is part of the YAML
 * structure rather than text: such a file is not a manifest until it is rendered. Text that
 * merely contains `{{` (alerting rule descriptions, notification templates) is not a template
 * of the file: inside quoted or block scalars always, inside plain scalars unless the scalar
 * starts with the expression, uses Helm's objects and functions or is a plain-name placeholder.
 * Returns the offset, or -1.
 */
export function findTemplateExpression(text: string, events: Event[] | undefined): number {
  if (text.indexOf('{{') < 0) return -1;
  return events ? findInEvents(text, events) : findInLines(text);
}

const HELM_EXPRESSION = /\{\{-?\s*(\.(Values|Release|Chart|Capabilities|Files|Template)\b|(include|toYaml|tpl|required)\b)/;
/**
 * A placeholder of a plain name ({{uid}}, as mustache or Jinja write one) in an object's name: no
 * name holds braces, while other text may mean them (a greeting, a log format's {{level}}).
 */
const PLACEHOLDER = /\{\{\s*[A-Za-z_]\w*\s*\}\}/;
const NAME_KEYS = new Set(['name', 'generateName', 'namespace']);

function findInEvents(text: string, events: Event[]): number {
  // Each open collection; in a mapping, whether the next node is a key, and the last key.
  const open: { mapping: boolean; expectKey: boolean; key: string }[] = [];
  /** A node seen in the innermost collection: the key it is the value of, if it is a mapping's value. */
  const place = (keyText: string): string | undefined => {
    const frame = open[open.length - 1];
    if (!frame?.mapping) return undefined;
    frame.expectKey = !frame.expectKey;
    if (!frame.expectKey) {
      frame.key = keyText;
      return undefined;
    }
    return frame.key;
  };
  for (const event of events) {
    if (event.type === EVENT_ID.SCALAR) {
      const scalar = event.valueStart >= 0 ? text.slice(event.valueStart, event.valueEnd) : '';
      const keyOf = place(scalar);
      if (event.style !== 1 || event.valueStart < 0) continue;
      const at = text.indexOf('{{', event.valueStart);
      const value = at >= 0 && at < event.valueEnd ? text.slice(at, event.valueEnd) : '';
      if (value && (at === event.valueStart || HELM_EXPRESSION.test(value) || (keyOf !== undefined && NAME_KEYS.has(keyOf) && PLACEHOLDER.test(value)))) return at;
    } else if (event.type === EVENT_ID.ALIAS) {
      place('');
    } else if (event.type === EVENT_ID.MAPPING || event.type === EVENT_ID.SEQUENCE) {
      if (text.startsWith('{{', event.start)) return event.start;
      place('');
      open.push({ mapping: event.type === EVENT_ID.MAPPING, expectKey: true, key: '' });
    } else if (event.type === EVENT_ID.DOCUMENT) {
      open.push({ mapping: false, expectKey: true, key: '' });
    } else if (event.type === EVENT_ID.POP) {
      open.pop();
    }
  }
  return -1;
}

/** For text that does not parse: a `{{` outside comments and outside quotes on its line. */
function findInLines(text: string): number {
  let lineStart = 0;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const at = templateInLine(text.slice(lineStart, lineEnd));
    if (at >= 0) return lineStart + at;
    lineStart = lineEnd + 1;
  }
  return -1;
}

function templateInLine(line: string): number {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"') i++;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) {
      return -1;
    } else if (c === '{' && line[i + 1] === '{') {
      return i;
    }
  }
  return -1;
}
