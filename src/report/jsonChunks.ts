/**
 * JSON.stringify(value) in pieces, byte for byte the same text: a long array property is
 * stringified some elements at a time, so a 100 MB report is never one string (the CLI writes
 * each piece as it comes).
 */
export function* jsonChunks(value: object, batch = 4096): Generator<string> {
  let separator = '{';
  for (const [key, item] of Object.entries(value)) {
    // JSON.stringify leaves out what it cannot write as a property.
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    yield `${separator}${JSON.stringify(key)}:`;
    separator = ',';
    if (!Array.isArray(item) || item.length <= batch) {
      yield JSON.stringify(item);
      continue;
    }
    for (let i = 0; i < item.length; i += batch) {
      const part = JSON.stringify(item.slice(i, i + batch));
      yield `${i === 0 ? '[' : ','}${part.slice(1, -1)}`;
    }
    yield ']';
  }
  yield separator === '{' ? '{}' : '}';
}
