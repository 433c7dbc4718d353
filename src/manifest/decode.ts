/**
 * Bytes to text as the API server sees them: UTF-8 (a byte-order mark is dropped), or not a
 * manifest at all. kubectl and the API server reject invalid UTF-8 rather than guess an
 * encoding, so the first bad byte is reported instead of being replaced with U+FFFD.
 */

export interface DecodedText {
  /** The text; with invalid bytes replaced by U+FFFD when `invalidAt` is set (for positions only). */
  text: string;
  /** Offset in `text` of the first character decoded from an invalid byte. */
  invalidAt?: number;
  /** Offset of that byte in the input. */
  invalidByteOffset?: number;
  invalidByte?: number;
}

const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

export function decodeUtf8(bytes: Uint8Array): DecodedText {
  try {
    return { text: strict.decode(bytes) };
  } catch {
    const bad = firstInvalidByte(bytes);
    const text = lenient.decode(bytes);
    // The valid prefix decodes to the same characters in both decoders.
    const invalidAt = lenient.decode(bytes.subarray(0, bad)).length;
    return { text, invalidAt, invalidByteOffset: bad, invalidByte: bytes[bad] };
  }
}

/** Offset of the first byte that does not begin or continue a well-formed UTF-8 sequence (RFC 3629). */
export function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let min = 0x80;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) min = 0xa0; // overlong
      if (b === 0xed) max = 0x9f; // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) min = 0x90; // overlong
      if (b === 0xf4) max = 0x8f; // beyond U+10FFFF
    } else return i;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      if (k === 1 ? c < min || c > max : c < 0x80 || c > 0xbf) return i;
    }
    i += length;
  }
  return bytes.length;
}
