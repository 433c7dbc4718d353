import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import fc from 'fast-check';
import { dump } from 'js-yaml';
import { analyse } from '../support/workspace';
import type { Range } from '../../src/manifest/range';
import { describeWithCorpus } from '../support/shared';

const RUNS = Number(process.env.KFS_FUZZ_RUNS ?? 10_000);
const YAML_CHARS = [...': -[]{}#&*!|>\'",?%@`\t\n\r\\.~0123456789abcdefkindspecreplicas{{}}\uFEFF\u00e9'];

/** Asserts the contract every analysis keeps, whatever the input: no exception, valid ranges. */
function assertWellFormed(text: string | Uint8Array): void {
  const analysis = analyse(text);
  const lines = analysis.read.parsed.lines;
  const valid = (range: Range) => {
    const { start, end } = range;
    if (start.line < 0 || start.character < 0 || start.line > end.line) return false;
    if (start.line === end.line && start.character > end.character) return false;
    if (end.line >= lines.lineCount) return false;
    return end.character <= lines.lineEnd(end.line) - lines.lineStart(end.line)
      && start.character <= lines.lineEnd(start.line) - lines.lineStart(start.line);
  };
  for (const finding of analysis.findings) {
    assert.ok(valid(finding.range), `invalid range ${JSON.stringify(finding.range)} for ${finding.ruleId} ${finding.message}`);
    assert.ok(finding.message.length > 0);
  }
  for (const object of analysis.objects) assert.ok(valid(object.range), `invalid object range ${JSON.stringify(object.range)}`);
}

const mutation = (text: string) =>
  fc.oneof(
    fc.record({ at: fc.nat(text.length), length: fc.nat(40) }).map(({ at, length }) => text.slice(0, at) + text.slice(at + length)),
    fc.record({ at: fc.nat(text.length), insert: fc.string({ unit: fc.constantFrom(...YAML_CHARS), maxLength: 12 }) })
      .map(({ at, insert }) => text.slice(0, at) + insert + text.slice(at)),
    fc.record({ from: fc.nat(text.length), to: fc.nat(text.length), length: fc.nat(200) })
      .map(({ from, to, length }) => text.slice(0, to) + text.slice(from, from + length) + text.slice(to)),
    fc.nat(text.length).map((at) => `${text.slice(0, at)}\n---\n${text.slice(at)}`),
  );

describe('parser robustness (fast-check)', () => {
  it(`never throws and gives valid ranges on generated YAML (${RUNS.toLocaleString('en-US')} cases)`, function () {
    this.timeout(300_000);
    const generated = fc.oneof(
      fc.string({ unit: fc.constantFrom(...YAML_CHARS), maxLength: 300 }),
      fc.jsonValue({ maxDepth: 5 }).map((value) => dump(value)).chain(mutation),
      fc.jsonValue({ maxDepth: 5 }).map((value) => `apiVersion: v1\nkind: Pod\nspec: ${JSON.stringify(value)}\n`).chain(mutation),
    );
    fc.assert(fc.property(generated, assertWellFormed), { numRuns: RUNS, seed: 42 });
  });
});

describe('byte input robustness (fast-check)', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);

  it(`any byte string gives findings, never an exception (${RUNS.toLocaleString('en-US')} cases)`, function () {
    this.timeout(300_000);
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 400 }),
      // Mostly YAML with a few bytes flipped: invalid UTF-8 in the middle of a manifest.
      fc.tuple(fc.string({ unit: fc.constantFrom(...YAML_CHARS), maxLength: 300 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0x80, max: 0xff })), { maxLength: 3 }))
        .map(([text, flips]) => {
          const encoded = utf8(text);
          for (const [at, byte] of flips) if (encoded.length > 0) encoded[at % encoded.length] = byte;
          return encoded;
        }),
    );
    fc.assert(fc.property(bytes, assertWellFormed), { numRuns: RUNS, seed: 11 });
  });

  it('invalid UTF-8 is one KFS090 at the first bad byte, and nothing else of the file', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...YAML_CHARS), maxLength: 200 }), fc.nat(), fc.integer({ min: 0xf8, max: 0xff }), (text, at, bad) => {
      const prefix = utf8(text.slice(0, at % (text.length + 1)));
      const bytes = new Uint8Array([...prefix, bad, ...utf8('\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n')]);
      const { findings, objects, read } = analyse(bytes);
      assert.deepEqual(findings.map((f) => f.ruleId), ['KFS090']);
      assert.equal(objects.length, 0);
      const start = read.parsed.lines.offset(findings[0].range.start);
      assert.equal(start, new TextDecoder().decode(prefix).length);
    }), { numRuns: 2000, seed: 5 });
  });

  it('valid UTF-8 with characters of every plane analyses exactly as its text does', () => {
    const yamlWithUnicode = fc.tuple(fc.string({ unit: fc.constantFrom(...YAML_CHARS), maxLength: 200 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }), fc.nat())
      .map(([text, wide, at]) => `apiVersion: v1\nkind: Pod\nmetadata: {name: "${wide.replace(/["\\]/g, '')}"}\n${text.slice(0, at % (text.length + 1))}${wide}${text.slice(at % (text.length + 1))}`);
    const seen = (findings: { ruleId: string; range: Range; message: string }[]) => findings.map((f) => [f.ruleId, f.range, f.message]);
    fc.assert(fc.property(yamlWithUnicode, (text) => {
      assert.deepEqual(seen(analyse(utf8(text)).findings), seen(analyse(text).findings));
    }), { numRuns: 2000, seed: 13 });
  });

  it('a byte-order mark and CRLF give the findings and positions of the plain text', () => {
    // kind first: KFS001 sits on line 0, where a mark that was kept would shift every column by one.
    const text = 'kind: StatefulSet\napiVersion: apps/v1\nmetadata: {name: db}\nspec:\n  replicas: 1\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec:\n      containers: [{name: c, image: x}]\n';
    const plain = analyse(utf8(text)).findings.map((f) => [f.ruleId, f.range]);
    const marked = analyse(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text.replace(/\n/g, '\r\n'))])).findings.map((f) => [f.ruleId, f.range]);
    assert.deepEqual(plain.find(([ruleId]) => ruleId === 'KFS001'), ['KFS001', { start: { line: 0, character: 6 }, end: { line: 0, character: 17 } }]);
    assert.deepEqual(marked, plain);
  });
});

describeWithCorpus('parser robustness on mutated ../shared/corpus files (fast-check)', (files) => {
  it(`never throws and gives valid ranges (${RUNS.toLocaleString('en-US')} cases)`, function () {
    this.timeout(300_000);
    const texts = files.filter((f) => fs.statSync(f).size < 64 * 1024).map((file) => fs.readFileSync(file, 'utf8'));
    const mutated = fc.constantFrom(...texts).chain((text) => mutation(text).chain(mutation));
    fc.assert(fc.property(mutated, assertWellFormed), { numRuns: RUNS, seed: 7 });
  });
});
