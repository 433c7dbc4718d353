/** The trace's events as the Events tab lists them: each with the object it is about (kind/name, as the text output names it). */
import { objectName } from '../watchRows';
import type { Marker, Timeline } from './model';

export interface NamedMarker extends Marker {
  object: string;
}

/** Every event with the object it is about, in the trace's order. */
export function allEvents(timeline: Timeline): NamedMarker[] {
  const named: (NamedMarker & { order: number })[] = [];
  const order = timeline.traceOrder;
  const add = (events: readonly Marker[], kind: string, name: string) => {
    const object = objectName(kind, name);
    for (const e of events) named.push({ ...e, object, order: order.get(e) ?? Infinity });
  };
  for (const node of timeline.nodes) add(node.events, 'Node', node.name);
  for (const w of timeline.workloads) {
    add(w.events, w.ref.kind, w.ref.name);
    for (const pod of w.pods) add(pod.events, 'Pod', pod.ref.name);
    for (const ep of w.endpoints) add(ep.events, 'EndpointSlice', ep.ref.name);
  }
  for (const pod of timeline.otherPods) add(pod.events, 'Pod', pod.ref.name);
  for (const ep of timeline.otherEndpoints) add(ep.events, 'EndpointSlice', ep.ref.name);
  for (const e of timeline.otherEvents) named.push({ ...e, object: objectName(e.object.kind, e.object.name), order: order.get(e) ?? Infinity });
  // Within one millisecond, the trace's order (a pod created before its node's event is listed so).
  return named.sort((a, b) => a.t - b.t || a.order - b.order).map(({ order: _, ...e }) => e);
}
