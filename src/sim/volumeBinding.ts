/**
 * PersistentVolumeClaims of the workloads and the volumes behind them (the PV controller and
 * the scheduler's VolumeBinding plugin): static and local PVs from the input, dynamically
 * provisioned zonal disks otherwise, bound when the first pod using a claim is scheduled.
 */
import { HOSTNAME_LABEL, ZONE_LABEL } from '../cluster/clusterSpec';
import type { NodeSelectorTerm, PersistentVolume, PersistentVolumeClaimSpec, StorageClass } from '../manifest/model/types';
import { diskName } from '../manifest/model/podSpec';
import { podVolumes } from '../manifest/model/workloads';
import type { SimClaim, SimNode, SimVolume, SimWorkload } from './objects';
import { matchesNodeSelectorTerms } from './selectors';
import type { Store } from './store';

const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

function isExclusive(accessModes: string[]): boolean {
  if (accessModes.includes('ReadWriteMany') || accessModes.includes('ReadOnlyMany')) return false;
  return accessModes.length === 0 || accessModes.includes('ReadWriteOnce') || accessModes.includes('ReadWriteOncePod');
}

interface ClaimSpec {
  accessModes: string[];
  storageClassName?: string;
  volumeName?: string;
}

/** Shared by every pod without volumes (most of them). */
const NO_CLAIMS: readonly SimClaim[] = Object.freeze([]);

export class VolumeBinder {
  private readonly claims = new Map<string, SimClaim>();
  private readonly claimSpecs = new Map<string, ClaimSpec>();
  private readonly pvs = new Map<string, SimVolume>();
  private readonly pvClass = new Map<SimVolume, string>();
  private readonly boundPvs = new Set<SimVolume>();

  constructor(
    private readonly store: Store,
    pvcs: readonly PersistentVolumeClaimSpec[],
    pvs: readonly PersistentVolume[],
    private readonly storageClasses: readonly StorageClass[],
  ) {
    for (const pvc of pvcs) this.claimSpecs.set(`${pvc.namespace}/${pvc.name}`, pvc);
    for (const pv of pvs) {
      const volume: SimVolume = {
        name: pv.name,
        exclusive: isExclusive(pv.accessModes),
        nodeAffinity: pv.nodeAffinity,
        local: pv.local || pv.hostPath !== undefined,
      };
      this.pvs.set(pv.name, volume);
      this.pvClass.set(volume, pv.storageClassName ?? '');
      store.volumes.push(volume);
    }
  }

  /** The claims a pod of the workload mounts (StatefulSet claims are per ordinal and outlive pods). */
  claimsFor(workload: SimWorkload, ordinal?: number): readonly SimClaim[] {
    const spec = workload.spec;
    const claims: SimClaim[] = [];
    for (const { volume } of podVolumes(spec)) {
      if (volume.source === 'persistentVolumeClaim' && volume.claimName) claims.push(this.claim(workload.namespace, volume.claimName, undefined));
      if (volume.disk?.exclusive) claims.push(this.inlineDisk(diskName(volume.disk)));
    }
    if (spec.kind === 'StatefulSet' && ordinal !== undefined) {
      for (const template of spec.volumeClaimTemplates) {
        claims.push(this.claim(workload.namespace, `${template.name}-${workload.name}-${ordinal}`, template));
      }
    }
    return claims.length > 0 ? claims : NO_CLAIMS;
  }

  private claim(namespace: string, name: string, template: PersistentVolumeClaimSpec | undefined): SimClaim {
    const key = `${namespace}/${name}`;
    let claim = this.claims.get(key);
    if (claim) return claim;
    const spec: ClaimSpec = this.claimSpecs.get(key) ?? template ?? { accessModes: ['ReadWriteOnce'] };
    claim = { name, namespace };
    if (spec.volumeName && this.pvs.has(spec.volumeName)) {
      this.bind(claim, this.pvs.get(spec.volumeName)!);
    } else if (this.isLocalClass(spec.storageClassName)) {
      const className = spec.storageClassName ?? '';
      claim.candidateVolumes = [...this.pvs.values()].filter((v) => this.pvClass.get(v) === className && !this.boundPvs.has(v));
    }
    this.claimSpecs.set(key, spec);
    this.claims.set(key, claim);
    return claim;
  }

  /**
   * A disk written in the pod spec (gcePersistentDisk ...): no claim object, but the same
   * attach to one node at a time as a bound ReadWriteOnce claim, shared by every pod naming it.
   */
  private inlineDisk(name: string): SimClaim {
    const key = `inline:${name}`;
    let claim = this.claims.get(key);
    if (claim) return claim;
    const volume: SimVolume = { name, exclusive: true, nodeAffinity: [], local: false, inline: true };
    this.store.volumes.push(volume);
    claim = { name, namespace: '', volume };
    this.claims.set(key, claim);
    return claim;
  }

  private isLocalClass(className: string | undefined): boolean {
    const storageClass = className === undefined ? this.storageClasses.find((c) => c.isDefault) : this.storageClasses.find((c) => c.name === className);
    if (storageClass) return storageClass.provisioner === NO_PROVISIONER;
    // A class the input does not define: local if the input has PVs of that class.
    return className !== undefined && [...this.pvClass.values()].includes(className);
  }

  private bind(claim: SimClaim, volume: SimVolume): void {
    claim.volume = volume;
    claim.candidateVolumes = undefined;
    this.boundPvs.add(volume);
  }

  /** VolumeBinding Filter: the reason the node cannot serve the claims, or undefined. */
  conflict(claims: readonly SimClaim[], node: SimNode): string | undefined {
    for (const claim of claims) {
      if (claim.volume) {
        if (!matchesNodeSelectorTerms(claim.volume.nodeAffinity, node.name, node.labels)) return "node(s) had volume node affinity conflict";
      } else if (claim.candidateVolumes && !this.freeCandidate(claim, node)) {
        return "node(s) didn't find available persistent volumes to bind";
      }
    }
    return undefined;
  }

  /** VolumeBinding PreFilter: bound volumes pinned to hostnames narrow the nodes to consider. */
  pinnedNodes(claims: readonly SimClaim[]): Set<string> | undefined {
    let names: Set<string> | undefined;
    for (const claim of claims) {
      const pinned = claim.volume && hostnames(claim.volume.nodeAffinity);
      if (!pinned) continue;
      names = names ? new Set([...names].filter((n) => pinned.has(n))) : pinned;
    }
    return names;
  }

  /** Binds claims when their first pod is bound to a node (WaitForFirstConsumer): a free local PV or a new zonal disk. */
  bindForNode(claims: readonly SimClaim[], node: SimNode): void {
    for (const claim of claims) {
      if (claim.volume) continue;
      if (claim.candidateVolumes) {
        const volume = this.freeCandidate(claim, node);
        if (volume) this.bind(claim, volume);
        continue;
      }
      const spec = this.claimSpecs.get(`${claim.namespace}/${claim.name}`)!;
      const zone = node.labels[ZONE_LABEL];
      const volume: SimVolume = {
        name: `pvc-${claim.namespace}-${claim.name}`,
        exclusive: isExclusive(spec.accessModes),
        nodeAffinity: zone ? [{ matchExpressions: [{ key: ZONE_LABEL, operator: 'In', values: [zone] }], matchFields: [] }] : [],
        local: false,
      };
      this.store.volumes.push(volume);
      this.bind(claim, volume);
    }
  }

  private freeCandidate(claim: SimClaim, node: SimNode): SimVolume | undefined {
    return claim.candidateVolumes?.find((v) => !this.boundPvs.has(v) && matchesNodeSelectorTerms(v.nodeAffinity, node.name, node.labels));
  }
}

function hostnames(terms: readonly NodeSelectorTerm[]): Set<string> | undefined {
  if (terms.length === 0) return undefined;
  const names = new Set<string>();
  for (const term of terms) {
    const requirement = term.matchExpressions.find((r) => r.key === HOSTNAME_LABEL && r.operator === 'In');
    if (!requirement) return undefined;
    for (const value of requirement.values) names.add(value);
  }
  return names;
}
