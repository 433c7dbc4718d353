/**
 * Which workload each pod belongs to. The trace names the owner of the pods created during the
 * run (PodCreated's `owner`); the pods that exist from the start are matched by the names the
 * controllers give them (StatefulSet `name-N`, Deployment `name-<hash>-<suffix>`, others
 * `name-<suffix>`, a bare Pod its own name), longest workload name first.
 */
import { MAX_GENERATE_NAME_PREFIX } from '../../manifest/limits';
import { refKey } from '../../manifest/objects';
import type { EventJson, ObjectRef } from '../contract';

export { refKey };

function namePattern(kind: string): RegExp {
  switch (kind) {
    case 'Pod': return /^$/;
    case 'StatefulSet': return /^-\d+$/;
    case 'Deployment': return /^-[a-z0-9]+-[a-z0-9]{5}$/;
    default: return /^-[a-z0-9]{5}$/;
  }
}

interface Candidate {
  ref: ObjectRef;
  key: string;
  pattern: RegExp;
}

export class PodOwners {
  /** Pods created during the run: namespace -> name -> owner key (the trace's own strings as keys, no key built per pod). */
  private readonly created = new Map<string, Map<string, string>>();
  /** Per namespace, its workloads, longest name first. */
  private readonly candidates = new Map<string, Candidate[]>();
  /** Per namespace, its workloads by name, in that order: a pod's name is looked up at each of its dashes, not compared with every workload. */
  private readonly byName = new Map<string, Map<string, Candidate[]>>();

  constructor(workloads: readonly ObjectRef[], events: readonly EventJson[]) {
    const byName = new Map(workloads.map((w) => [`${w.kind}/${w.namespace}/${w.name}`, w]));
    for (const event of events) {
      if (event.type !== 'PodCreated' || typeof event.detail?.owner !== 'string') continue;
      const owner = byName.get(`${event.detail.owner.replace('/', `/${event.object.namespace}/`)}`);
      if (!owner) continue;
      const { namespace, name } = event.object;
      (this.created.get(namespace) ?? this.created.set(namespace, new Map()).get(namespace)!).set(name, refKey(owner));
    }
    for (const ref of [...workloads].sort((a, b) => b.name.length - a.name.length)) {
      const candidate = { ref, key: refKey(ref), pattern: namePattern(ref.kind) };
      const list = this.candidates.get(ref.namespace) ?? [];
      list.push(candidate);
      this.candidates.set(ref.namespace, list);
      const named = this.byName.get(ref.namespace) ?? this.byName.set(ref.namespace, new Map()).get(ref.namespace)!;
      named.set(ref.name, [...(named.get(ref.name) ?? []), candidate]);
    }
  }

  /** The owning workload's key (refKey), or null for a pod no workload of the trace claims. */
  ownerOf(pod: ObjectRef): string | null {
    const known = this.created.get(pod.namespace)?.get(pod.name);
    if (known) return known;
    const { name } = pod;
    if (mayBeCutGenerated(name)) {
      for (const { ref, key, pattern } of this.candidates.get(pod.namespace) ?? []) {
        if ((name.startsWith(ref.name) && pattern.test(name.slice(ref.name.length))) || generatedFromCutPrefix(ref, name)) return key;
      }
      return null;
    }
    // Every name pattern is empty or starts with a dash: the owner's name is the pod's, or its start up to a dash. Longest first, as above.
    const named = this.byName.get(pod.namespace);
    if (!named) return null;
    for (let end = name.length; end > 0; end = name.lastIndexOf('-', end - 1)) {
      for (const { key, pattern } of named.get(name.slice(0, end)) ?? []) if (pattern.test(name.slice(end))) return key;
    }
    return null;
  }
}

/** A name as generateName makes it from a prefix cut to its limit: the prefix and five random characters. */
function mayBeCutGenerated(podName: string): boolean {
  return podName.length === MAX_GENERATE_NAME_PREFIX + 5 && /^[a-z0-9]{5}$/.test(podName.slice(MAX_GENERATE_NAME_PREFIX));
}

/** A generated name whose prefix (`name-` or a Deployment's `name-hash-`) was cut: only its start is the workload's. */
function generatedFromCutPrefix(ref: ObjectRef, podName: string): boolean {
  if (ref.kind === 'Pod' || ref.kind === 'StatefulSet' || !mayBeCutGenerated(podName)) return false;
  const prefix = podName.slice(0, MAX_GENERATE_NAME_PREFIX);
  if (ref.name.length >= MAX_GENERATE_NAME_PREFIX) return ref.name.startsWith(prefix);
  return ref.kind === 'Deployment' && prefix.startsWith(ref.name) && /^-[a-z0-9]*-?$/.test(prefix.slice(ref.name.length));
}
