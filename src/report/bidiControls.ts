/**
 * Bidirectional formatting characters (marks, embeddings, overrides, isolates) in a name from an
 * untrusted manifest would reorder the text around it: "node-c\u202Eevil" makes a line read
 * backwards. The page shows each as \uXXXX text, as the CLI's terminal output does.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The same JSON data with every string's bidirectional controls shown (keys included). */
export function withBidiControlsShown<T>(value: T): T {
  if (typeof value === 'string') return showBidiControls(value) as T;
  if (Array.isArray(value)) return value.map(withBidiControlsShown) as T;
  if (typeof value !== 'object' || value === null) return value;
  const shown: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // As JSON.parse makes it: an own property, also when it is called __proto__.
    Object.defineProperty(shown, showBidiControls(key), { value: withBidiControlsShown(item), enumerable: true, writable: true, configurable: true });
  }
  return shown as T;
}

/** An escape of a control not itself escaped (after an even run of backslashes), or the control itself. */
const BIDI_IN_JSON = new RegExp(String.raw`(?<!\\)((?:\\\\)*)\\u(061[cC]|200[eEfF]|202[a-eA-E]|206[6-9])|${BIDI_CONTROLS.source}`, 'g');

/**
 * The same on JSON text, before it is parsed: a control written as an escape (\u202e, as the HTML
 * report writes every character past ASCII) or as itself becomes an escaped backslash and the
 * letters, which parse to the text "\u202e". One pass over the text, not over the parsed objects.
 */
export function showBidiControlsInJson(json: string): string {
  return json.replace(BIDI_IN_JSON,
    (match, backslashes: string | undefined, hex: string | undefined) => (hex === undefined ? `\\\\u${match.charCodeAt(0).toString(16).padStart(4, '0')}` : `${backslashes}\\\\u${hex.toLowerCase()}`));
}
