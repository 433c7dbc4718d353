import * as assert from 'node:assert/strict';
import { buildTimeline } from '../../src/report/timeline/model';
import { allEvents } from '../../src/report/timeline/namedEvents';
import { exampleTrace } from './timelineSupport';
import { packReport } from '../../src/report/packedTrace';

describe('timeline events list', () => {
  it('names the object of every event, zone states and the controller-manager\'s lease included, as the text output does', () => {
    const events = allEvents(buildTimeline(packReport(exampleTrace('examples', '--failure', 'zone-outage', '--restart-controller-manager-at', '2m', '--duration', '5m'))));
    const named = new Set(events.map((e) => e.object));
    for (const object of ['zone/zone-a', 'lease/kube-controller-manager', 'cluster/assumptions']) assert.ok(named.has(object), object);
  });

  it('lists the events of one millisecond in the trace\'s order, not lane by lane', () => {
    const report = exampleTrace('examples', '--failure', 'zone-outage', '--cluster', 'test/fixtures/scenarios/zones.nodes.yaml', '--target', 'zone/west', '--duration', '10m');
    const listed = allEvents(buildTimeline(packReport(report))).map((e) => `${e.t} ${e.reason} ${e.message}`);
    const traced = report.events.filter((e) => e.reason !== 'NoEffect').map((e) => `${e.t} ${e.reason} ${e.message}`);
    assert.deepEqual(listed, traced);
  });
});

