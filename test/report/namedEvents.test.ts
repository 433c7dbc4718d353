import * as assert from 'node:assert/strict';
import { buildTimeline } from '../../src/report/timeline/model';
import { allEvents } from '../../src/report/timeline/namedEvents';
import { exampleTrace } from './timelineSupport';

describe('timeline events list', () => {
  it('names the object of every event, zone states and the controller-manager\'s lease included, as the text output does', () => {
    const events = allEvents(buildTimeline(exampleTrace('examples', '--failure', 'zone-outage', '--restart-controller-manager-at', '2m', '--duration', '5m')));
    const named = new Set(events.map((e) => e.object));
    for (const object of ['zone/zone-a', 'lease/kube-controller-manager', 'cluster/assumptions']) assert.ok(named.has(object), object);
  });
});
