/** Section D of RULES.md: resources and node pressure. */
import { valueAt } from '../../manifest/path';
import type { Container, Resources, Sourced, Workload } from '../../manifest/model/types';
import { podVolumes } from '../../manifest/model/workloads';
import { objectRef } from '../../manifest/objects';
import { editorFor, fix } from '../editing';
import { containerName, limitRangeDefaults, podSpecPath, rangeOf } from '../facts';
import type { Finding } from '../finding';
import type { Rule, RuleContext } from '../rule';

const QOS_DOCS = 'https://kubernetes.io/docs/concepts/workloads/pods/pod-qos/';

function finding(rule: Rule, workload: Sourced<Workload>, path: (string | number)[], message: string, extra: Partial<Finding> = {}): Finding {
  return { ruleId: rule.id, severity: rule.defaultSeverity, range: rangeOf(workload, path), message, object: objectRef(workload.source), ...extra };
}

/** No cpu or memory: the only resources the QoS class looks at (GetPodQOS; ephemeral-storage does not count). */
const isEmpty = (r: Resources) => r.cpuMillis === undefined && r.memoryBytes === undefined;
const isBare = (c: Container) => isEmpty(c.requests) && isEmpty(c.limits);

/** Guaranteed: every container has cpu and memory limits, and requests equal to them (the API server copies limits to missing requests). */
function isGuaranteed(container: Container): boolean {
  const { requests, limits } = container;
  return limits.cpuMillis !== undefined && limits.memoryBytes !== undefined
    && (requests.cpuMillis ?? limits.cpuMillis) === limits.cpuMillis && (requests.memoryBytes ?? limits.memoryBytes) === limits.memoryBytes;
}

export const bestEffort: Rule = {
  id: 'KFS040',
  title: 'BestEffort QoS: evicted first under node pressure',
  defaultSeverity: 'warning',
  docs: QOS_DOCS,
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      const containers = workload.template.spec.containers;
      // Init containers count too: requests on one alone make the pod Burstable.
      const all = [...containers, ...workload.template.spec.initContainers];
      // A LimitRange of the namespace that defaults cpu or memory gives every container a request: Burstable at least.
      const defaults = limitRangeDefaults(workload, ctx.workspace);
      if (containers.length === 0 || !all.every(isBare) || !isEmpty(defaults.requests) || !isEmpty(defaults.limits)) return [];
      return [finding(this, workload, [...podSpecPath(workload), 'containers'],
        'No container requests or limits cpu or memory: the pods are BestEffort. When its node runs low on memory or disk (memory.available<100Mi, nodefs.available<10% by default), the kubelet evicts first the pods using more than they request, lower priority first; a BestEffort pod requests nothing, so it goes before every pod within its requests, whatever its priority. Set requests (and limits) for each container.')];
    });
  },
};

/** A volume named or mounted like a database's or a dashboard's data (redis-data, /var/lib/grafana): a small sizeLimit would evict the pod as the data grows. */
const DATA_LIKE = /data|storage|(^|[-_/])db([-_/]|$)|\/var\/lib\//i;

function holdsData(volumeName: string, containers: readonly Container[]): boolean {
  return DATA_LIKE.test(volumeName) || containers.some((c) => c.volumeMounts.some((m) => m.name === volumeName && DATA_LIKE.test(m.mountPath)));
}

export const burstable: Rule = {
  id: 'KFS041',
  title: 'Burstable QoS: requests differ from limits',
  defaultSeverity: 'info',
  docs: QOS_DOCS,
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      const { containers, initContainers } = workload.template.spec;
      // Init containers count for the pod's QoS class as app containers do (GetPodQOS).
      const all = [...containers.map((container, i) => ({ container, field: 'containers', i })), ...initContainers.map((container, i) => ({ container, field: 'initContainers', i }))];
      // A container without resources keeps the pod from Guaranteed too, when another has some (all bare: BestEffort, KFS040) and a LimitRange gives it none.
      const defaults = limitRangeDefaults(workload, ctx.workspace);
      const bareKeepsBurstable = all.some(({ container }) => !isBare(container)) && isEmpty(defaults.requests) && isEmpty(defaults.limits);
      return all.flatMap(({ container, field, i }) => {
        if (isGuaranteed(container) || (isBare(container) && !bareKeepsBurstable)) return [];
        return [burstableFinding(this, ctx, workload, container, [...podSpecPath(workload), field, container.at ?? i, 'resources'], field === 'initContainers')];
      });
    });
  },
};

function burstableFinding(rule: Rule, ctx: RuleContext, workload: Sourced<Workload>, container: Container, path: (string | number)[], init: boolean): Finding {
  const raw = workload.source.sourceMap;
  // The limits as read (an alias, a tag or quotes resolved), not as written.
  const cpu = quantity(valueAt(workload.source.value, [...path, 'limits', 'cpu']));
  const memory = quantity(valueAt(workload.source.value, [...path, 'limits', 'memory']));
  const editor = editorFor(ctx.document, workload.source);
  const requests = raw.node([...path, 'requests']) !== undefined;
  const edits = cpu === undefined || memory === undefined ? [] : requests
    ? [editor.setEntry([...path, 'requests'], 'cpu', cpu), editor.setEntry([...path, 'requests'], 'memory', memory)]
    : [editor.setEntry(path, 'requests', { cpu, memory })];
  // QoS is the pod's: Guaranteed only when every other container (init containers too) already is.
  const others = [...workload.template.spec.containers, ...workload.template.spec.initContainers].filter((c) => c !== container && !isGuaranteed(c));
  const effect = others.length === 0 ? 'Guaranteed QoS: evicted last under node pressure'
    : `${containerName(container)} as Guaranteed; the pods stay Burstable while ${others.map(containerName).join(', ')} ${others.length === 1 ? 'is' : 'are'} not`;
  const fixes = fix(`Set requests equal to limits (${effect})`, edits);
  // What keeps it from Guaranteed, per resource: no limit, or a request below it (an unset request defaults to the limit).
  const gaps = isBare(container) ? ['no cpu or memory requests or limits, while another container of the pod has some'] : ([['cpu', 'cpuMillis'], ['memory', 'memoryBytes']] as const).flatMap(([name, key]) => {
    const limit = container.limits[key];
    if (limit === undefined) return [`no ${name} limit`];
    return (container.requests[key] ?? limit) < limit ? [`a ${name} request below its limit`] : [];
  });
  return finding(rule, workload, path,
    `${init ? 'Init container' : 'Container'} ${containerName(container)} has ${gaps.join(' and ')}: the pods are Burstable. Under node pressure the kubelet first evicts the pods using more than they request, BestEffort ones among them, lower priority first; a Burstable pod within its requests goes only after them, with the Guaranteed ones. Make requests and limits equal, cpu and memory, to make them Guaranteed (raising requests reserves more of the node).`,
    { fixes });
}

export const noMemoryLimit: Rule = {
  id: 'KFS042',
  title: 'No memory limit',
  defaultSeverity: 'warning',
  docs: 'https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      // A LimitRange's default memory limit is written into a container that sets none.
      if (limitRangeDefaults(workload, ctx.workspace).limits.memoryBytes !== undefined) return [];
      return workload.template.spec.containers.flatMap((container, i) => {
        if (container.limits.memoryBytes !== undefined) return [];
        const path = [...podSpecPath(workload), 'containers', container.at ?? i];
        return [finding(this, workload, workload.source.sourceMap.node([...path, 'resources']) ? [...path, 'resources'] : [...path, 'name'],
          `Container ${containerName(container)} has no memory limit: a leak grows until the node is short of memory, and then the kernel OOM-kills processes or the kubelet evicts pods, neighbours included. Set resources.limits.memory.`)];
      });
    });
  },
};

export const unboundedEmptyDir: Rule = {
  id: 'KFS043',
  title: 'emptyDir without sizeLimit',
  defaultSeverity: 'warning',
  docs: 'https://kubernetes.io/docs/concepts/storage/volumes/#emptydir',
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      const spec = workload.template.spec;
      // An ephemeral-storage limit bounds a disk-backed emptyDir; a memory-backed one (tmpfs) counts against memory instead.
      const storageLimited = spec.containers.some((c) => c.limits.ephemeralStorageBytes !== undefined);
      const memoryLimited = spec.containers.every((c) => c.limits.memoryBytes !== undefined);
      const editor = editorFor(ctx.document, workload.source);
      return podVolumes(workload).flatMap(({ volume, index: i }) => {
        if (volume.source !== 'emptyDir' || volume.emptyDirSizeLimitBytes !== undefined) return [];
        const memory = volume.emptyDirMedium === 'Memory';
        if (memory ? memoryLimited : storageLimited) return [];
        const path = [...podSpecPath(workload), 'volumes', i, 'emptyDir'];
        const data = holdsData(volume.name, spec.containers);
        return [finding(this, workload, path,
          memory
            ? `emptyDir ${volume.name} is memory-backed (tmpfs) with no sizeLimit, and not every container has a memory limit: what it holds is RAM, and it can grow until the node is short of memory, when the kubelet evicts pods (memory.available<100Mi).`
            : `emptyDir ${volume.name} has no sizeLimit and no container limits ephemeral-storage: it can fill the node's disk, and under disk pressure (nodefs.available<10%) the kubelet evicts pods.`,
          { fixes: fix(`Limit the emptyDir to 1Gi (${memory ? `${volume.name} is capped at 1Gi instead of growing into the pod's memory` : `the kubelet evicts the pod when ${volume.name} exceeds 1Gi, before the node's disk fills`}${data ? `; ${volume.name} looks like a data directory: make the limit larger than what it holds` : ''})`,
            [editor.setEntry(path, 'sizeLimit', '1Gi')], { preferred: !data }) })];
      });
    });
  },
};

/** A quantity as the constructed object holds it: a string or a number. */
function quantity(value: unknown): string | number | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}
