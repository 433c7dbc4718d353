/** The trace's events as the Events tab lists them: each with the object it is about (kind/name, as the text output names it). */
import type { Marker, Timeline } from './model';

export interface NamedMarker extends Marker {
  object: string;
}

/** Every event with the object it is about, in time order. */
export function allEvents(timeline: Timeline): NamedMarker[] {
  const named: NamedMarker[] = [];
  for (const node of timeline.nodes) for (const e of node.events) named.push({ ...e, object: `node/${node.name}` });
  for (const w of timeline.workloads) {
    for (const e of w.events) named.push({ ...e, object: `${w.ref.kind.toLowerCase()}/${w.ref.name}` });
    for (const pod of w.pods) for (const e of pod.events) named.push({ ...e, object: `pod/${pod.ref.name}` });
    for (const ep of w.endpoints) for (const e of ep.events) named.push({ ...e, object: `endpointslice/${ep.ref.name}` });
  }
  for (const pod of timeline.otherPods) for (const e of pod.events) named.push({ ...e, object: `pod/${pod.ref.name}` });
  for (const ep of timeline.otherEndpoints) for (const e of ep.events) named.push({ ...e, object: `endpointslice/${ep.ref.name}` });
  for (const e of timeline.otherEvents) named.push({ ...e, object: `${e.object.kind.toLowerCase()}/${e.object.name}` });
  return named.sort((a, b) => a.t - b.t);
}

