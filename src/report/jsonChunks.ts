/**
 * JSON.stringify(value) in pieces, byte for byte the same text: a long array, at the top or in
 * the plain objects `depth` levels down, is stringified some elements at a time, so a 100 MB
 * report is never one string (the CLI writes each piece as it comes).
 */
export function* jsonChunks(value: unknown, batch = 4096, depth = 2): Generator<string> {
  if (Array.isArray(value) && value.length > batch) {
    for (let i = 0; i < value.length; i += batch) yield `${i === 0 ? '[' : ','}${JSON.stringify(value.slice(i, i + batch)).slice(1, -1)}`;
    yield ']';
    return;
  }
  if (depth === 0 || !isPlainObject(value)) {
    yield JSON.stringify(value);
    return;
  }
  let separator = '{';
  for (const [key, item] of Object.entries(value)) {
    // JSON.stringify leaves out what it cannot write as a property.
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    yield `${separator}${JSON.stringify(key)}:`;
    separator = ',';
    yield* jsonChunks(item, batch, depth - 1);
  }
  yield separator === '{' ? '{}' : '}';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || 'toJSON' in value) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
