import * as assert from 'node:assert/strict';
import { ManifestParser, parseManifestText, type ParsedFile } from '../../src/manifest/parseFile';
import type { Range } from '../../src/manifest/range';

function textAt(file: ParsedFile, range: Range | undefined): string {
  assert.ok(range, 'range exists');
  return file.text.slice(file.lines.offset(range.start), file.lines.offset(range.end));
}

function pos(range: Range | undefined): string {
  assert.ok(range);
  return `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;
}

describe('manifest parser', () => {
  it('splits on --- and keeps each document at its own lines', () => {
    const file = parseManifestText([
      '# leading comment',
      '---',
      'kind: A',
      'metadata:',
      '  name: a',
      '---',
      '# comment inside the second document',
      'kind: B',
      'spec:',
      '  replicas: 3',
      '',
    ].join('\n'));
    assert.deepEqual(file.problems, []);
    assert.equal(file.documents.length, 2);
    assert.deepEqual(file.documents[1].value, { kind: 'B', spec: { replicas: 3 } });
    assert.equal(pos(file.documents[0].range), '2:0-4:9');
    assert.equal(pos(file.documents[1].range), '7:0-9:13');
    assert.equal(pos(file.documents[1].sourceMap.keyRange('spec.replicas')), '9:2-9:10');
    assert.equal(pos(file.documents[1].sourceMap.valueRange('spec.replicas')), '9:12-9:13');
  });

  it('puts a flow collection left open at its bracket, and names a key given twice', () => {
    const open = parseManifestText('kind: Deployment\nspec:\n  bad: [x, "y]"  # ]\n  replicas: 2\n');
    assert.equal(open.problems.length, 1);
    assert.equal(textAt(open, open.problems[0].range), '[');
    assert.equal(pos(open.problems[0].range), '2:7-2:8');
    assert.equal(open.problems[0].message, 'YAML syntax error: this [ is never closed with ]; the parser gives up at line 4 (deficient indentation).');
    // Closed on its line: the error stays where the parser found it.
    const indent = parseManifestText('kind: A\nx:\n  y: [1]\n z: 2\n');
    assert.match(indent.problems[0].message, /^YAML syntax error: bad indentation of a mapping entry\.$/);
    const twice = parseManifestText('kind: ConfigMap\nmetadata:\n  name: a\n  name: b\n');
    assert.equal(twice.problems[0].message, 'YAML syntax error: duplicated mapping key "name" (here, its second time in one mapping).');
    assert.equal(pos(twice.problems[0].range).split('-')[0], '3:2');
  });

  it('treats ... as the end of a document and parses what follows as the next one', () => {
    const file = parseManifestText('a: 1\n...\n%YAML 1.2\n---\nb: 2\n...\nc: 3\n');
    assert.deepEqual(file.problems, []);
    assert.deepEqual(file.documents.map((d) => d.value), [{ a: 1 }, { b: 2 }, { c: 3 }]);
    assert.equal(pos(file.documents[2].sourceMap.valueRange('c')), '6:3-6:4');
  });

  it('gives the ranges of flow collections, quoted keys, anchors and aliases', () => {
    const file = parseManifestText([
      'spec: {tolerations: [{key: k, tolerationSeconds: 30}], "quoted key": \'v\'}',
      'defaults: &defaults',
      '  cpu: 500m',
      'copy: *defaults',
      'merged:',
      '  <<: *defaults',
      '  memory: 1Gi',
    ].join('\n'));
    const map = file.documents[0].sourceMap;
    assert.equal(textAt(file, map.valueRange('spec.tolerations[0].tolerationSeconds')), '30');
    assert.equal(pos(map.valueRange('spec.tolerations[0].tolerationSeconds')), '0:49-0:51');
    assert.equal(textAt(file, map.valueRange('spec.tolerations')), '[{key: k, tolerationSeconds: 30}]');
    assert.equal(textAt(file, map.valueRange('spec')), `{tolerations: [{key: k, tolerationSeconds: 30}], "quoted key": 'v'}`);
    assert.equal(textAt(file, map.keyRange(['spec', 'quoted key'])), '"quoted key"');
    assert.equal(textAt(file, map.valueRange(['spec', 'quoted key'])), `'v'`);
    assert.equal(textAt(file, map.valueRange('copy')), '*defaults');
    // Paths through an alias or a merge key lead to the anchored source.
    assert.equal(pos(map.valueRange('copy.cpu')), '2:7-2:11');
    assert.equal(pos(map.valueRange('merged.cpu')), '2:7-2:11');
    assert.equal(pos(map.valueRange('merged.memory')), '6:10-6:13');
    assert.deepEqual(file.documents[0].value, {
      spec: { tolerations: [{ key: 'k', tolerationSeconds: 30 }], 'quoted key': 'v' },
      defaults: { cpu: '500m' },
      copy: { cpu: '500m' },
      merged: { cpu: '500m', memory: '1Gi' },
    });
  });

  it('starts a block scalar range at its indicator and ends the object at its last line', () => {
    const file = parseManifestText('kind: ConfigMap\ndata:\n  script: |- # comment with | and >\n    echo one\n    echo two\n\n');
    const document = file.documents[0];
    assert.equal(pos(document.sourceMap.valueRange('data.script')), '2:10-6:0');
    assert.equal((document.value as { data: { script: string } }).data.script, 'echo one\necho two');
    assert.equal(pos(document.range), '0:0-4:12');
  });

  it('reads CRLF line endings and a byte-order mark without shifting columns', () => {
    const file = parseManifestText('\uFEFFkind: Pod\r\nspec:\r\n  nodeName: "n1"\r\n');
    assert.deepEqual(file.documents[0].value, { kind: 'Pod', spec: { nodeName: 'n1' } });
    assert.equal(pos(file.documents[0].sourceMap.valueRange('spec.nodeName')), '2:12-2:16');
    assert.equal(pos(file.documents[0].sourceMap.keyRange('kind')), '0:0-0:4');
  });

  it('reads a byte-order mark at the start of a later document as kubectl does (files concatenated), columns kept', () => {
    const file = parseManifestText('kind: A\n---\n\uFEFFkind: B\nspec: {x: 1}\n--- # next\r\n\uFEFFkind: C\r\n');
    assert.deepEqual(file.problems, []);
    assert.deepEqual(file.documents.map((d) => d.value), [{ kind: 'A' }, { kind: 'B', spec: { x: 1 } }, { kind: 'C' }]);
    assert.equal(pos(file.documents[1].sourceMap.keyRange('kind')), '2:1-2:5');
    assert.equal(pos(file.documents[1].sourceMap.valueRange('spec.x')), '3:10-3:11');
    assert.equal(pos(file.documents[2].sourceMap.valueRange('kind')), '5:7-5:8');
  });

  it('reports a YAML error at its line and column and still parses the other documents', () => {
    const file = parseManifestText('kind: A\n---\nkind: B\nspec:\n  a: 1\n   b: 2\n---\nkind: C\n');
    assert.equal(file.problems.length, 1);
    assert.equal(file.problems[0].ruleId, 'KFS090');
    assert.equal(file.problems[0].severity, 'error');
    assert.match(file.problems[0].message, /bad indentation/);
    assert.equal(file.problems[0].range.start.line, 5);
    assert.deepEqual(file.documents.map((d) => d.value), [{ kind: 'A' }, { kind: 'C' }]);
  });

  it('reports duplicate keys as errors on the second key', () => {
    const file = parseManifestText('kind: A\nspec:\n  replicas: 1\n  replicas: 2\n');
    assert.equal(file.problems[0].ruleId, 'KFS090');
    assert.equal(pos(file.problems[0].range), '3:2-3:11');
  });

  it('detects a Helm template once and analyses nothing of the file', () => {
    const file = parseManifestText([
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: {{ .Release.Name }}',
      '---',
      '{{- if .Values.enabled }}',
      'kind: Deployment',
      '{{- end }}',
    ].join('\n'));
    assert.deepEqual(file.documents, []);
    assert.equal(file.problems.length, 1);
    assert.equal(file.problems[0].ruleId, 'KFS091');
    assert.equal(pos(file.problems[0].range), '3:8-3:10');
  });

  it('does not take template text inside strings for a Helm template', () => {
    const file = parseManifestText([
      'kind: PrometheusRule',
      'spec:',
      '  description: Instance {{ $labels.instance }} is down',
      '  summary: "{{ .Values.x }} quoted"',
      '  text: |',
      '    {{ range .Alerts }}{{ end }}',
    ].join('\n'));
    assert.deepEqual(file.problems, []);
    assert.equal(file.documents.length, 1);
  });

  it('takes a plain-name placeholder inside a plain scalar (name: vttablet-{{uid}}) for a template, as kubernetes/examples\' vitess templates are', () => {
    const file = parseManifestText(['kind: Pod', 'apiVersion: v1', 'metadata:', '  name: vttablet-{{uid}}', '  labels: {keyspace: "{{keyspace}}"}'].join('\n'));
    assert.deepEqual(file.problems.map((p) => [p.ruleId, pos(p.range)]), [['KFS091', '3:17-3:24']]);
    // Elsewhere braces may be meant: a greeting, a log format, an argument after a list item that reads "name".
    const text = parseManifestText(['kind: ConfigMap', 'apiVersion: v1', 'metadata: {name: greet}', 'data:', '  greeting: Hello {{name}}, welcome', '  format: --log-template={{level}} {{msg}}',
      '  args:', '  - --sort-by', '  - name', '  - --format=Hello {{user}}'].join('\n'));
    assert.deepEqual(text.problems, []);
    // The key is the value's own, in flow style too and after a nested mapping.
    assert.equal(parseManifestText('a: {x: 1}\nmetadata: {labels: {a: b}, name: vt-{{uid}}}\n').problems[0]?.ruleId, 'KFS091');
  });

  /** a: 9 strings; each next level 9 aliases of the previous one (9^levels strings when expanded). */
  function laughs(levels: number, width = 9): string {
    const lines = [`l0: &l0 [${Array(width).fill('"lol"').join(',')}]`];
    for (let i = 1; i < levels; i++) lines.push(`l${i}: &l${i} [${Array(width).fill(`*l${i - 1}`).join(',')}]`);
    return lines.join('\n');
  }

  it('keeps aliases that go-yaml accepts: paths through them lead to the anchored source', () => {
    const file = parseManifestText(laughs(3));
    assert.deepEqual(file.problems, []);
    assert.equal(file.documents[0].sourceMap.valueRange('l2[8][8][8]')?.start.line, 0);
    assert.equal(file.documents[0].sourceMap.valueRange('l2[8][8]')?.start.line, 1, 'a path ending at an alias gives the alias');
  });

  it('rejects a billion-laughs document as go-yaml does ("excessive aliasing"), at the alias that crosses the limit', () => {
    const file = parseManifestText(laughs(10));
    assert.equal(file.documents.length, 0);
    assert.equal(file.problems.length, 1);
    const [problem] = file.problems;
    assert.equal(problem.ruleId, 'KFS093');
    assert.equal(problem.severity, 'error');
    assert.match(problem.message, /excessive aliasing/);
    // As go-yaml counts: after l2, 1,026 nodes decoded and 990 through aliases; each alias of l3 adds 911, and the 4th passes 99 %.
    assert.equal(pos(problem.range), '3:21-3:24');
    assert.equal(file.text.slice(file.lines.offset(problem.range.start), file.lines.offset(problem.range.end)), '*l2');
  });

  it('rejects an alias inside the node its anchor names as go-yaml does ("value contains itself"), and analysis goes on', () => {
    for (const text of ['spec: &r {x: 1, y: *r}\n', 'spec: &r\n  x: [1, *r]\n', 'spec: &r\n  a: 1\n  b: {<<: *r}\n']) {
      const file = parseManifestText(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n${text}`);
      assert.equal(file.documents.length, 0, text);
      assert.deepEqual(file.problems.map((p) => [p.ruleId, p.severity]), [['KFS093', 'error']], text);
      assert.match(file.problems[0].message, /anchor 'r' value contains itself/);
      assert.equal(file.text.slice(file.lines.offset(file.problems[0].range.start), file.lines.offset(file.problems[0].range.end)), '*r');
    }
    // An anchor used after its node ends is no cycle.
    assert.deepEqual(parseManifestText('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: &r {x: "1"}\nbinaryData: {y: *r}\n').problems, []);
  });

  it('finds excessive aliasing in time linear in the written text, however far it would expand', () => {
    // 60 levels of 20 aliases: 20^60 nodes if expanded; deep chains of single aliases too.
    for (const text of [laughs(60, 20), laughs(3000, 1)]) {
      const file = parseManifestText(text);
      assert.ok(file.problems.every((p) => p.ruleId === 'KFS093'), JSON.stringify(file.problems));
    }
  });

  it('reports nesting beyond the depth limit as a limit, not a crash', () => {
    const file = parseManifestText(`kind: A\nspec: ${'['.repeat(150)}${']'.repeat(150)}\n`);
    assert.equal(file.problems[0].ruleId, 'KFS093');
    assert.match(file.problems[0].message, /deeper than 100 levels/);
  });

  it('reports the document limit with the limit named', () => {
    const text = Array.from({ length: 5 }, (_, i) => `kind: K\nmetadata: {name: n${i}}`).join('\n---\n');
    const file = new ManifestParser({ maxDocuments: 3, maxChars: 1000 }).parse(text);
    assert.equal(file.documents.length, 3);
    assert.equal(file.problems[0].ruleId, 'KFS093');
    assert.match(file.problems[0].message, /more than 3 documents; only the first 3/);
  });

  it('re-parses only the document an edit touched', () => {
    const documents = Array.from({ length: 50 }, (_, i) => `kind: Deployment\nmetadata:\n  name: d${i}\nspec:\n  replicas: ${i}\n`);
    const parser = new ManifestParser();
    parser.parse(documents.join('---\n'));
    assert.equal(parser.lastParsedChunks, 50);
    documents[20] = documents[20].replace('replicas: 20', 'replicas: 21\n  paused: true');
    const edited = parser.parse(documents.join('---\n'));
    assert.equal(parser.lastParsedChunks, 1);
    // Documents below the edit moved down a line; their ranges follow.
    assert.equal(pos(edited.documents[21].sourceMap.valueRange('spec.replicas')), `${21 * 6 + 1 + 4}:12-${21 * 6 + 1 + 4}:14`);
    assert.deepEqual(edited.documents[20].value, { kind: 'Deployment', metadata: { name: 'd20' }, spec: { replicas: 21, paused: true } });
  });

  it('follows Kubernetes YAML 1.1 reading of booleans and octal numbers, keeping timestamps as strings', () => {
    const file = parseManifestText('a: yes\nb: 0644\nc: 2024-01-01T00:00:00Z\nd: "yes"\n');
    assert.deepEqual(file.documents[0].value, { a: true, b: 420, c: '2024-01-01T00:00:00Z', d: 'yes' });
    // go-yaml's floats: an exponent without a dot too (yamlStyleFloat); YAML 1.1's own forms unchanged.
    const numbers = parseManifestText('a: 1e3\nb: -2.5E-1\nc: .5\nd: 1_000\ne: "1e3"\nf: 1e\ng: .inf\nh: 3.0\ni: 1e309\n');
    assert.deepEqual(numbers.documents[0].value, { a: 1000, b: -0.25, c: 0.5, d: 1000, e: '1e3', f: '1e', g: Infinity, h: 3, i: '1e309' });
    // go-yaml's integers (strconv.ParseInt base 0, as kubectl reads them): 0o, 0O and 0B prefixes; no sexagesimal.
    const integers = parseManifestText('a: 0o17\nb: 0O17\nc: 0B11\nd: -0x1F\ne: 0o3_1\nf: 1:30\ng: 190:20:30\nh: 0o\ni: 08\n');
    assert.deepEqual(integers.documents[0].value, { a: 15, b: 15, c: 3, d: -31, e: 25, f: '1:30', g: '190:20:30', h: '0o', i: 8 });
    // Nor sexagesimal floats; .inf and .nan are go-yaml's too.
    assert.deepEqual(parseManifestText('a: 1:30.5\nb: -.Inf\nc: .Nan\n').documents[0].value, { a: '1:30.5', b: -Infinity, c: '.Nan' });
  });
});
