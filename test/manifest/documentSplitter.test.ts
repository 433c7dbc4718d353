import * as assert from 'node:assert/strict';
import { splitDocuments } from '../../src/manifest/documentSplitter';

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
});
