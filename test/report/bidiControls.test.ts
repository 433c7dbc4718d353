import * as assert from 'node:assert/strict';
import { showBidiControls, showBidiControlsInJson, withBidiControlsShown } from '../../src/report/bidiControls';

describe('bidirectional controls shown as text', () => {
  const rlo = 'node-c\u202Eevil';

  it('shows each control as \\uXXXX and leaves other text, right-to-left letters included, alone', () => {
    assert.equal(showBidiControls(rlo), 'node-c\\u202eevil');
    assert.equal(showBidiControls('\u2066a\u2069 \u200Fb\u061C'), '\\u2066a\\u2069 \\u200fb\\u061c');
    assert.equal(showBidiControls('שלום web-0 …'), 'שלום web-0 …');
  });

  it('maps every string of JSON data, keys included, and keeps __proto__ an own property', () => {
    const data = JSON.parse(`{"title": "${rlo}", "list": [1, "${rlo}", null, true], "nested": {"${rlo}": {"__proto__": "${rlo}"}}}`);
    const shown = withBidiControlsShown(data);
    assert.deepEqual(JSON.parse(JSON.stringify(shown)), JSON.parse(JSON.stringify(data).replaceAll('\u202e', '\\\\u202e')));
    assert.equal(Object.getPrototypeOf(shown.nested['node-c\\u202eevil']), Object.prototype);
    assert.ok(Object.hasOwn(shown.nested['node-c\\u202eevil'], '__proto__'));
  });

  it('on JSON text gives what parsing and then mapping gives, for escaped and literal controls, but not for an escaped backslash before u202e', () => {
    const escaped = JSON.stringify({ a: rlo, b: '\u2067x', c: 'C:\\u202e', d: '\\\u202e' }).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    for (const text of [escaped, JSON.stringify({ a: rlo, b: '\u2067x', c: 'C:\\u202e', d: '\\\u202e' }), escaped.replaceAll('u202e', 'u202E')]) {
      assert.deepEqual(JSON.parse(showBidiControlsInJson(text)), withBidiControlsShown(JSON.parse(text)), text);
    }
    assert.equal(JSON.parse(showBidiControlsInJson(escaped)).c, 'C:\\u202e');
  });
});
