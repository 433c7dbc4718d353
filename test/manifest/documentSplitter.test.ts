import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { splitDocuments } from '../../src/manifest/documentSplitter';

/** The rule spelled out line by line, without the splitter's shortcuts. */
function referenceChunks(text: string): string[] {
  const lines = text.match(/[^\r\n]*(?:\r\n|\r|\n|$)/g)!.filter((l, i, all) => l !== '' || i < all.length - 1);
  const chunks: string[] = [];
  let current = '';
  let hasContent = false;
  for (const line of lines) {
    const body = line.replace(/[\r\n]+$/, '');
    const marker = /^(---|\.\.\.)(?:[ \t]|$)/.exec(body)?.[1];
    const preamble = /^[ \t]*(#|$)/.test(body) || body.startsWith('%');
    if (marker === '---') {
      if (hasContent) chunks.push(current), (current = '');
      hasContent = true;
      current += line;
    } else if (marker === '...') {
      chunks.push(current + line);
      current = '';
      hasContent = false;
    } else {
      if (!preamble) hasContent = true;
      current += line;
    }
  }
  if (current !== '' || chunks.length === 0) chunks.push(current);
  return chunks;
}

function chunkTexts(text: string): string[] {
  return splitDocuments(text).chunks.map((c) => text.slice(c.start, c.end));
}

describe('document splitter', () => {
  it('keeps leading comments and directives with the document that follows', () => {
    assert.deepEqual(chunkTexts('# c\n%YAML 1.2\n---\na: 1\n---\nb: 2\n'), ['# c\n%YAML 1.2\n---\na: 1\n', '---\nb: 2\n']);
  });

  it('ends a document after ... and does not split on --- inside text', () => {
    assert.deepEqual(chunkTexts('a: 1\n...\nb: "--- not a marker"\nc: ---x\n'), ['a: 1\n...\n', 'b: "--- not a marker"\nc: ---x\n']);
  });

  it('records the start line of each chunk for CRLF and CR line breaks', () => {
    assert.deepEqual(splitDocuments('a: 1\r\n---\r\nb: 2\r\n').chunks.map((c) => c.startLine), [0, 1]);
    assert.deepEqual(splitDocuments('a: 1\r---\rb: 2').chunks.map((c) => c.startLine), [0, 1]);
  });

  it('accepts a --- line that carries content and a lone --- at the end', () => {
    assert.deepEqual(chunkTexts('--- |\n  text\n--- {a: 1}\n---'), ['--- |\n  text\n', '--- {a: 1}\n', '---']);
  });

  it('splits like the line-by-line rule on generated streams', () => {
    const line = fc.constantFrom('a: 1', '  b: 2', '', '# c', '  # c', '%YAML 1.2', '---', '--- x', '...', '... ', '-- -', '- item', '  ---', '\t', '--- |', '.x');
    fc.assert(fc.property(fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { maxLength: 20 }), (parts) => {
      const text = parts.map(([l, eol]) => l + eol).join('');
      assert.deepEqual(chunkTexts(text), referenceChunks(text));
    }), { numRuns: 2000 });
  });
});
