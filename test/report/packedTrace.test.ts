import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { EventJson, StateInterval, TraceReport } from '../../src/report/contract';
import { eventMessage } from '../../src/report/eventMessages';
import { isPackedReport, packReport, unpackReport } from '../../src/report/packedTrace';
import { exampleTrace } from './timelineSupport';

/** What the page gets: the packing written as JSON and read back. */
const roundTrip = (report: TraceReport) => unpackReport(JSON.parse(JSON.stringify(packReport(report))));

describe('packed trace (the HTML report\'s embedded form)', () => {
  it('unpacks to the report, key for key: the JSON text of the examples\' traces is the same', () => {
    for (const args of [
      ['examples/web-deployment.yaml', '--duration', '10m'],
      ['examples/postgres-statefulset.yaml', '--duration', '12m', '--force-delete', 'StatefulSet/postgres@7m'],
      ['examples', '--failure', 'graceful-shutdown', '--duration', '5m'],
      ['examples', '--failure', 'zone-outage', '--cluster', 'test/fixtures/scenarios/zones.nodes.yaml', '--target', 'zone/west', '--duration', '15m', '--at', '1m', '--recover-after', '9m'],
    ]) {
      const report = exampleTrace(...args);
      const json = JSON.stringify(report);
      assert.equal(JSON.stringify(roundTrip(report)), json, args.join(' '));
      // The events and states, which make a large trace large, pack to less than half.
      const packed = packReport(report);
      const packedSize = JSON.stringify(packed).length - JSON.stringify(packed.rest).length;
      const size = JSON.stringify({ events: report.events, states: report.states }).length;
      assert.ok(packedSize < size / 2, `${args.join(' ')}: packed ${packedSize} of ${size} characters`);
    }
  });

  it('keeps a message of its own where the words are not eventMessage\'s (Kubernetes\' own, or changed)', () => {
    const report = exampleTrace('examples/web-deployment.yaml', '--duration', '6m');
    report.events[0].message = 'written by someone else';
    const kubernetes = report.events.find((e) => e.type === 'KubernetesEvent' || e.type === 'NodeCondition');
    assert.ok(kubernetes, 'the trace has an event whose message Kubernetes words');
    const packed = packReport(report);
    assert.equal(packed.events[0][4], 'written by someone else');
    assert.equal(JSON.stringify(roundTrip(report)), JSON.stringify(report));
  });

  it('round-trips any strings and detail values (numbers, arrays, objects, booleans, null, strings that look like numbers)', () => {
    const text = fc.string({ unit: 'binary', maxLength: 12 });
    const ref = fc.record({ kind: fc.constantFrom('Pod', 'Node', 'Deployment', 'EndpointSlice', '0'), name: text, namespace: text });
    const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    const state = fc.record({
      object: ref, from: fc.integer({ min: -600_000, max: 3_600_000 }), to: fc.option(fc.integer({ min: 0, max: 3_600_000 }), { nil: null }), status: text,
      ready: optional(text), restarts: optional(fc.nat(9)), node: optional(text), ip: optional(text), taints: optional(fc.array(text, { maxLength: 3 })),
    }).map((s) => JSON.parse(JSON.stringify(s)) as StateInterval);
    const event = fc.record({
      t: fc.integer({ min: -600_000, max: 3_600_000 }), object: ref, type: fc.constantFrom('PodCreated', 'EndpointChanged', 'Note', 'KubernetesEvent', 'Fault'),
      reason: text, detail: optional(fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })),
    }).map((e) => {
      const json = { t: e.t, object: e.object, type: e.type, reason: e.reason, message: '', ...(e.detail ? { detail: e.detail } : {}) } as EventJson;
      return JSON.parse(JSON.stringify(json)) as EventJson;
    });
    const base = exampleTrace('examples/web-deployment.yaml', '--duration', '2m');
    fc.assert(fc.property(fc.array(state, { maxLength: 20 }), fc.array(event, { maxLength: 20 }), fc.boolean(), (states, events, worded) => {
      // Messages either as eventMessage words them (packed as 0) or anything else (kept).
      const report: TraceReport = { ...base, events: events.map((e, i) => ({ ...e, message: worded ? eventMessage(e) : `m${i}` })), states };
      assert.equal(JSON.stringify(roundTrip(report)), JSON.stringify(report));
    }));
  });

  it('packs the report in memory as its JSON reads: undefined values left out, the words the same', () => {
    const report = exampleTrace('examples/web-deployment.yaml', '--duration', '10m');
    const scheduled = report.events.find((e) => e.type === 'PodScheduled')!;
    scheduled.detail = { node: undefined, extra: undefined, ip: null };
    scheduled.message = 'Successfully assigned shop/x to undefined';
    report.states[0].ip = undefined;
    assert.equal(JSON.stringify(unpackReport(JSON.parse(JSON.stringify(packReport(report))))), JSON.stringify(report));
  });

  it('keeps a detail key "__proto__" as a key', () => {
    const report = exampleTrace('examples/web-deployment.yaml', '--duration', '2m');
    report.events[0].detail = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const back = roundTrip(report);
    assert.equal(JSON.stringify(back), JSON.stringify(report));
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
    assert.equal(Object.getPrototypeOf(back.events[0].detail), Object.prototype);
  });

  it('is told from a plain report', () => {
    const report = exampleTrace('examples/web-deployment.yaml', '--duration', '2m');
    assert.equal(isPackedReport(report), false);
    assert.equal(isPackedReport(packReport(report)), true);
    assert.equal(isPackedReport(null), false);
  });
});
