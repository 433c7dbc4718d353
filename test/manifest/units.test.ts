import * as assert from 'node:assert/strict';
import { formatDuration, parseDuration } from '../../src/manifest/duration';
import { cpuMillis, parseQuantity } from '../../src/manifest/quantity';
import { formatPath, parsePath } from '../../src/manifest/path';

describe('Kubernetes quantities', () => {
  it('reads decimal and binary suffixes and exponents', () => {
    assert.equal(parseQuantity('500m'), 0.5);
    assert.equal(parseQuantity('2'), 2);
    assert.equal(parseQuantity(1.5), 1.5);
    assert.equal(parseQuantity('1Gi'), 1073741824);
    assert.equal(parseQuantity('128Mi'), 134217728);
    assert.equal(parseQuantity('1G'), 1e9);
    assert.equal(parseQuantity('1e3'), 1000);
    assert.equal(parseQuantity('.5'), 0.5);
    assert.equal(parseQuantity('100k'), 100000);
    // E alone is exa and Ei exbi, not an exponent.
    assert.equal(parseQuantity('1E'), 1e18);
    assert.equal(parseQuantity('1Ei'), 2 ** 60);
    assert.equal(parseQuantity('2E3'), 2000);
  });

  it('rejects what the API server rejects', () => {
    for (const text of ['', 'abc', '1GB', '1 Gi', '--1', '1.2.3', 'Mi']) assert.equal(parseQuantity(text), undefined, text);
  });

  it('rounds CPU up to whole millicores', () => {
    assert.equal(cpuMillis(0.5), 500);
    assert.equal(cpuMillis(0.0001), 1);
    assert.equal(cpuMillis(2), 2000);
  });
});

describe('Go durations', () => {
  it('parses like time.ParseDuration', () => {
    assert.equal(parseDuration('40s'), 40000);
    assert.equal(parseDuration('1m30s'), 90000);
    assert.equal(parseDuration('1.5h'), 5400000);
    assert.equal(parseDuration('300ms'), 300);
    assert.equal(parseDuration('0'), 0);
    assert.equal(parseDuration('-5s'), -5000);
    assert.equal(parseDuration('2h45m'), 9900000);
  });

  it('rejects numbers without units, days and garbage', () => {
    for (const text of ['40', '1d', 's', '', '1m30', 'ten seconds', '5 s']) assert.equal(parseDuration(text), undefined, text);
    // time.Duration is int64 nanoseconds: about 2562047h at most.
    assert.equal(parseDuration('2562047h'), 2562047 * 3_600_000);
    assert.equal(parseDuration('2562048h'), undefined);
  });

  it('formats durations compactly', () => {
    assert.equal(formatDuration(90000), '1m30s');
    assert.equal(formatDuration(341500), '5m41.5s');
    assert.equal(formatDuration(0), '0s');
    assert.equal(formatDuration(3600000), '1h');
    assert.equal(formatDuration(250), '250ms');
  });
});

describe('JSON paths', () => {
  it('writes identifiers with dots and other keys in brackets, and reads them back', () => {
    const path = ['spec', 'template', 'metadata', 'annotations', 'kube-failure-sim/ignore', 'x', 0, 'a.b'];
    const text = formatPath(path);
    assert.equal(text, 'spec.template.metadata.annotations["kube-failure-sim/ignore"].x[0]["a.b"]');
    assert.deepEqual(parsePath(text), path);
    assert.deepEqual(parsePath('spec.tolerations[0].tolerationSeconds'), ['spec', 'tolerations', 0, 'tolerationSeconds']);
  });
});
