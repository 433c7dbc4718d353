/** Section A of RULES.md: what happens to each workload when its node fails, with the simulated numbers. */
import { HOSTNAME_LABEL, ZONE_LABEL } from '../../cluster/clusterSpec';
import { API_SERVER_KNOBS } from '../../cluster/apiServerConfiguration';
import { DISABLED_ADMISSION } from '../../manifest/model/clusterConfig';
import { matchesLabelSelector, matchesMap, namespaceLabels, termNamespaces } from '../../sim/selectors';
import { features } from '../../sim/context';
import { formatDuration } from '../../report/format';
import type { LabelSelector, PodAffinityTerm, Sourced, Workload } from '../../manifest/model/types';
import { isMirrorPod, podVolumes } from '../../manifest/model/workloads';
import { diskName } from '../../manifest/model/podSpec';
import { objectRef } from '../../manifest/objects';
import { editorFor, fix, outageEffect, workloadEffect } from '../editing';
import { claimOf, holdsAppData, isLocalClass, isWritten, kindRange, localVolumeOf, nodeBoundData, nodeLocal, nodeFailureTolerations, NOT_READY, podSpecPath, rangeOf, servicesInFront, UNREACHABLE, volumeOfClaim } from '../facts';
import { autoscalerOf, fewestPods, hasReplicas } from '../../manifest/model/autoscaling';
import type { Finding } from '../finding';
import { approx, outageText } from '../outageText';
import { selectedNodes } from '../workloadSimulation';
import type { Rule, RuleContext } from '../rule';

const TAINT_DOCS = 'https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions';
/** Each lets a second copy start while the first may still run: only once the node is known to be off. */
const RELEASE = 'once you are sure the node is off (a pod still running there would run twice), force-delete it (kubectl delete pod --force --grace-period=0), delete the Node object, or taint the node node.kubernetes.io/out-of-service=nodeshutdown:NoExecute';
/** RULES.md KFS006: shorter than detection plus a typical network blip. */
const SHORT_TOLERATION_SECONDS = 60;

function base(rule: Rule, workload: Sourced<Workload>, range: Finding['range'], message: string, extra: Partial<Finding> = {}): Finding {
  return { ruleId: rule.id, severity: rule.defaultSeverity, range, message, object: objectRef(workload.source), ...extra };
}

function simulated(ctx: RuleContext, workload: Sourced<Workload>) {
  return ctx.simulations.outcome(workload, ctx.workspace, ctx.timing);
}

export const statefulSetStuck: Rule = {
  id: 'KFS001',
  title: 'StatefulSet pod stays Terminating on a failed node',
  defaultSeverity: 'warning',
  docs: 'https://kubernetes.io/docs/concepts/cluster-administration/node-shutdown/#non-graceful-node-shutdown',
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      if (workload.kind !== 'StatefulSet') return [];
      const outcome = simulated(ctx, workload);
      const cause = outcome?.summary.cause;
      if (!outcome || cause?.kind !== 'statefulset-identity') return [];
      const down = outcome.summary.unavailableMs >= outcome.durationMs;
      return [base(this, workload, kindRange(workload),
        `${down ? 'Down' : 'Short of a replica'} until the node returns or someone acts if its node fails: ${cause.pod} is deleted at ${approx(outcome.summary.podDeletionMs!)} but stays Terminating on the unreachable node, and the StatefulSet never creates a second ${cause.pod} while the old object exists. To release it, ${RELEASE}.`,
        { explanation: outcome && outageText(outcome).because })];
    });
  },
};

export const singleReplica: Rule = {
  id: 'KFS002',
  title: 'Single replica: down while its node is replaced',
  defaultSeverity: 'warning',
  docs: TAINT_DOCS,
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      if (!hasReplicas(workload)) return [];
      // An autoscaler owns the replica count: minReplicas decides, whatever replicas is written here.
      const autoscaler = autoscalerOf(workload, ctx.workspace);
      if ((autoscaler ? autoscaler.minReplicas : workload.replicas) >= 2) return [];
      const outcome = simulated(ctx, workload);
      if (!outcome) return [];
      const text = outageText(outcome);
      if (autoscaler) {
        return [base(this, workload, kindRange(workload),
          `${text.headline} if its node fails while HorizontalPodAutoscaler ${autoscaler.name} has scaled it to 1 replica: ${text.because}. Set minReplicas: 2 in the autoscaler, not replicas here.`)];
      }
      const written = isWritten(workload, ['spec', 'replicas']);
      const editor = editorFor(ctx.document, workload.source);
      // Replicas that share one ReadWriteOnce claim cannot run on two nodes (Multi-Attach): a second one does not help.
      const claim = workload.kind === 'StatefulSet' ? undefined : sharedExclusiveClaim(workload, ctx);
      if (claim) {
        return [base(this, workload, written ? rangeOf(workload, ['spec', 'replicas']) : kindRange(workload),
          `${text.headline} if its node fails: ${text.because}. A second replica would not help: it would mount the same ${claim}, which only one node can attach (Multi-Attach error). Give each replica its own volume (a StatefulSet with volumeClaimTemplates) or use a ReadWriteMany volume.`)];
      }
      // A claim that is not among the inputs was simulated as ReadWriteOnce: say so, and that a second replica shares it.
      const unknown = workload.kind === 'StatefulSet' ? undefined : unknownClaim(workload, ctx);
      if (unknown) {
        return [base(this, workload, written ? rangeOf(workload, ['spec', 'replicas']) : kindRange(workload),
          `${text.headline} if its node fails and claim ${unknown} (not among the inputs) is ReadWriteOnce, as simulated: ${text.because}. A second replica would mount the same claim: it keeps the workload serving only if the claim is ReadWriteMany.`)];
      }
      // A StatefulSet's second pod is a new member with its own volume, not a copy: only an application that replicates gains from it.
      const member = workload.kind === 'StatefulSet';
      // Behind a Service that also selects other workloads' pods (blue/green), the service keeps answering from those.
      const services = servicesInFront(workload, ctx.workspace.services);
      // Another object, not the same one written in a second file (kubernetes-manifests/ beside release/).
      const others = ctx.workspace.workloads.filter((w) => !(w.kind === workload.kind && w.name === workload.name) && w.namespace === workload.namespace
        && servicesInFront(w, ctx.workspace.services).some((svc) => services.includes(svc)));
      // One name written in several files (overlays, a legacy copy) is one workload to the reader.
      const otherNames = [...new Set(others.map((w) => `${w.kind}/${w.name}`))];
      const shared = otherNames.length > 0 ? ` Service ${services[0].name} also sends traffic to ${otherNames.slice(0, 3).join(', ')}, so the Service keeps answering while ${otherNames.length === 1 ? 'that workload\'s pods run' : 'those workloads\' pods run'} on other nodes.` : '';
      // KFS001 tells a StatefulSet's stuck pod and how to release it; said again here it would be the same warning twice.
      const because = outcome.summary.cause.kind === 'statefulset-identity'
        ? `${outcome.summary.cause.pod} stays Terminating on the failed node and is not created again while that object exists (KFS001 says how to release it)`
        : text.because;
      return [base(this, workload, written ? rangeOf(workload, ['spec', 'replicas']) : kindRange(workload),
        `${text.headline} if its node fails: ${because}. ${member ? `A second member on another node keeps it serving if the application replicates its data${workload.kind === 'StatefulSet' && workload.volumeClaimTemplates.length > 0 ? ' (a StatefulSet\'s second pod starts with its own empty volume)' : ''}.` : 'A second replica on another node keeps it serving.'}${shared}`,
        { fixes: fix(member ? 'Set replicas: 2, for an application that runs as several members' : 'Set replicas: 2', [editor.setEntry(['spec'], 'replicas', 2, 'first')], { preferred: !member, effect: outageEffect(workload) }) })];
    });
  },
};

export const barePod: Rule = {
  id: 'KFS003',
  title: 'Bare Pod: never recreated',
  defaultSeverity: 'warning',
  docs: 'https://kubernetes.io/docs/concepts/workloads/pods/#working-with-pods',
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      if (workload.kind !== 'Pod' || workload.ownerKinds.length > 0 || isMirrorPod(workload)) return [];
      const outcome = simulated(ctx, workload);
      const deleted = outcome?.summary.podDeletionMs;
      // Deleted while its node is down, it is gone for good: the returning kubelet removes it.
      const isDeleted = deleted !== null && deleted !== undefined;
      const headline = workload.template.spec.restartPolicy === 'Never'
        ? `Lost if its node reboots (its kubelet does not start a restartPolicy Never pod again)${isDeleted ? ` or is down for more than ${approx(deleted)} (the pod is deleted then)` : ''};`
        : isDeleted
          ? `Down for good if its node is down for more than ${approx(deleted)}: the pod is deleted then, stays Terminating until the node returns, and`
          : 'Down until the node returns if its node fails: the pod is not deleted (it tolerates the taint), stays bound to that node, and';
      // A Deployment's template accepts only restartPolicy Always: a run-once pod belongs in a Job.
      const runsOnce = workload.template.spec.restartPolicy === 'Never' || workload.template.spec.restartPolicy === 'OnFailure';
      const instead = runsOnce ? `Run it as a Job, which creates it again until it completes (restartPolicy ${workload.template.spec.restartPolicy} is not allowed in a Deployment)` : 'Run it under a Deployment (or a StatefulSet for a stable identity)';
      return [base(this, workload, kindRange(workload), `${headline} nothing creates it again. ${instead}.`)];
    });
  },
};

export const pinnedToOneNode: Rule = {
  id: 'KFS004',
  title: 'Pinned to one node: its replacement stays Pending',
  defaultSeverity: 'warning',
  docs: 'https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/',
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      if (workload.kind === 'DaemonSet') return [];
      const spec = workload.template.spec;
      // A bare Pod naming its node is never recreated anyway (KFS003); a static pod belongs there.
      if (spec.nodeName !== undefined && workload.kind !== 'Pod') return pinnedByNodeName(this, ctx, workload, spec.nodeName);
      if (Object.keys(spec.nodeSelector).length === 0 && spec.affinity.nodeRequired.length === 0) return [];
      const { cluster, nodes: matching } = selectedNodes(workload, ctx.workspace);
      if (matching.length !== 1) return [];
      const outcome = simulated(ctx, workload);
      const cause = outcome?.summary.cause;
      if (!outcome || (cause?.kind !== 'replacement-pending' && cause?.kind !== 'statefulset-identity' && cause?.kind !== 'bare-pod')) return [];
      // The field that pins it: the nodeSelector when it alone matches that one node, else the node affinity.
      const bySelector = Object.keys(spec.nodeSelector).length > 0 && cluster.nodes.filter((n) => matchesMap(spec.nodeSelector, n.labels)).length === 1;
      const path = bySelector || spec.affinity.nodeRequired.length === 0 ? [...podSpecPath(workload), 'nodeSelector'] : [...podSpecPath(workload), 'affinity', 'nodeAffinity'];
      const why = cause.kind === 'replacement-pending' ? `its replacement stays Pending: ${cause.message ?? 'no node matches'}` : 'nothing can replace it elsewhere';
      return [base(this, workload, rangeOf(workload, path),
        `Down until ${matching[0].name} returns if it fails: only that node of the cluster (${cluster.source}) matches this selector, so ${why}`)];
    });
  },
};

/** KFS004 for spec.nodeName: the API server binds every pod to that node as it is created, so the scheduler never moves a replacement. */
function pinnedByNodeName(rule: Rule, ctx: RuleContext, workload: Sourced<Workload>, node: string): Finding[] {
  const cause = simulated(ctx, workload)?.summary.cause;
  if (cause?.kind !== 'pinned-by-node-name') return [];
  return [base(rule, workload, rangeOf(workload, [...podSpecPath(workload), 'nodeName']),
    `Down until ${node} returns if it fails: spec.nodeName binds every pod to ${node} without the scheduler, replacements included, so each replacement stays Pending there until the taint manager evicts it and another takes its place (simulated: ${cause.replacements} in the default scenario). A nodeSelector on kubernetes.io/hostname pins as well, and node affinity can prefer the node instead.`)];
}

export const localStorage: Rule = {
  id: 'KFS005',
  title: 'Node-local storage pins the pod to its node',
  defaultSeverity: 'warning',
  docs: 'https://kubernetes.io/docs/concepts/storage/volumes/#local',
  check(ctx) {
    const findings: Finding[] = [];
    for (const workload of ctx.document.model.workloads) {
      // A DaemonSet's or a static pod's pods belong to their node: its data is where they run.
      if (workload.kind === 'DaemonSet' || isMirrorPod(workload)) continue;
      const volumesPath = [...podSpecPath(workload), 'volumes'];
      // A bare Pod is not recreated at all (KFS003); a controller's pod is, elsewhere.
      // Whether another node holds the same data (models staged on every node) only the user knows.
      const elsewhere = workload.kind === 'Pod' ? 'the pod is never recreated, and a copy of it on another node would not have it' : 'the pod is recreated elsewhere, on that node\'s copy of the path (empty, unless every node holds the same data)';
      const outcome = simulated(ctx, workload);
      const consequence = outcome ? ` (${outageText(outcome).headline.toLowerCase()} in the default scenario)` : '';
      podVolumes(workload).forEach(({ volume, index: i }) => {
        if (volume.source === 'hostPath' && holdsAppData(volume.hostPath)) {
          findings.push(base(this, workload, rangeOf(workload, [...volumesPath, i, 'hostPath']),
            `The data in hostPath ${volume.hostPath ?? volume.name} stays on the node: if the node fails, ${elsewhere}${consequence}.`));
        }
        if (volume.source !== 'persistentVolumeClaim' || !volume.claimName) return;
        const bound = volumeOfClaim(workload.namespace, volume.claimName, ctx.workspace);
        // A hostPath PersistentVolume without node affinity pins nothing: the pod moves, its data does not.
        if (bound?.hostPath !== undefined && !bound.local && bound.nodeAffinity.length === 0 && holdsAppData(bound.hostPath)) {
          const at = ctx.locate(bound.source);
          findings.push(base(this, workload, rangeOf(workload, [...volumesPath, i, 'persistentVolumeClaim', 'claimName']),
            `Claim ${volume.claimName} is bound to ${bound.name}, a hostPath volume (${bound.hostPath}): the data stays on the node the pod ran on, and if that node fails ${elsewhere}${consequence}.`,
            { related: at ? [{ location: at, message: `PersistentVolume ${bound.name}: hostPath ${bound.hostPath}` }] : undefined }));
          return;
        }
        const pv = nodeLocal(bound);
        if (!pv) return;
        const location = ctx.locate(pv.source);
        findings.push(base(this, workload, rangeOf(workload, [...volumesPath, i, 'persistentVolumeClaim', 'claimName']),
          `Claim ${volume.claimName} is bound to the local volume ${pv.name}, which exists on one node only: if that node fails, the pod can only run there again and stays Pending until it returns; its data is only on that node${consequence}.`,
          { related: location ? [{ location, message: `PersistentVolume ${pv.name}: local to one node` }] : undefined }));
      });
      if (workload.kind !== 'StatefulSet') continue;
      workload.volumeClaimTemplates.forEach((template, i) => {
        if (!isLocalClass(template.storageClassName, ctx.workspace)) return;
        const cause = outcome?.summary.cause;
        const stuck = cause?.kind === 'statefulset-identity' && cause.localVolume ? `; simulated: ${cause.pod} stays Terminating, and even once released it can only run on ${cause.node}` : '';
        findings.push(base(this, workload, rangeOf(workload, ['spec', 'volumeClaimTemplates', i, 'spec', 'storageClassName']),
          `Storage class ${template.storageClassName ?? '(default)'} provides local volumes (no provisioner): each pod is bound to the node of its volume, so a failed node keeps its pod down until it returns${stuck}.`));
      });
    }
    return findings;
  },
};

export const shortToleration: Rule = {
  id: 'KFS006',
  title: 'tolerationSeconds too short for a pod with local data',
  defaultSeverity: 'warning',
  docs: TAINT_DOCS,
  check(ctx) {
    const findings: Finding[] = [];
    for (const workload of ctx.document.model.workloads) {
      if (workload.kind === 'DaemonSet') continue;
      const data = nodeBoundData(workload, ctx.workspace);
      if (data.length === 0) continue;
      for (const { toleration, index } of nodeFailureTolerations(workload)) {
        const seconds = toleration.tolerationSeconds;
        if (seconds === undefined || seconds >= SHORT_TOLERATION_SECONDS) continue;
        const path = [...podSpecPath(workload), 'tolerations', index, 'tolerationSeconds'];
        // The not-ready taint comes from a kubelet reporting NotReady (its runtime down), not from a node cut off.
        const notReady = toleration.key === NOT_READY;
        const outcome = ctx.simulations.outcome(workload, ctx.workspace, ctx.timing, notReady ? 'kubelet-not-ready' : 'partition');
        const evicted = outcome?.summary.podDeletionMs;
        const when = notReady
          ? `a kubelet reporting NotReady (its container runtime down) for longer than about ${evicted !== null && evicted !== undefined ? approx(evicted) : 'a moment'}`
          : evicted !== null && evicted !== undefined ? `a network blip that cuts its node off for longer than about ${approx(evicted)}` : 'a short network blip';
        const editor = editorFor(ctx.document, workload.source);
        // One fix raises every short toleration of a dead node; its title names them all.
        const short = nodeFailureTolerations(workload).filter((t) => t.toleration.tolerationSeconds !== undefined && t.toleration.tolerationSeconds < 300);
        const edits = short.map((t) => editor.replaceValue([...podSpecPath(workload), 'tolerations', t.index, 'tolerationSeconds'], '300'));
        const keys = [...new Set(short.map((t) => (t.toleration.key === NOT_READY ? 'not-ready' : t.toleration.key === UNREACHABLE ? 'unreachable' : 'every taint')))].join(' and ');
        findings.push(base(this, workload, rangeOf(workload, path),
          `tolerationSeconds ${seconds} is shorter than ${notReady ? 'a runtime restart' : 'a network blip'}: ${when} evicts the pod ${seconds > 0 ? `${seconds}s after the NoExecute taint` : 'as soon as the NoExecute taint is added (0 or less is at once)'}, and the ${data.map((d) => d.description).join(', ')} it leaves behind is lost to it. Tolerate ${toleration.key || 'the taints'} for 300s (the default) unless losing the data is fine.`,
          { fixes: fix(`Tolerate ${keys} for 300s`, edits, { preferred: true, effect: workloadEffect(workload, short.every((t) => t.toleration.key === NOT_READY) ? 'not-ready-eviction' : 'partition-eviction') }) }));
      }
    }
    return findings;
  },
};

export const toleratedForever: Rule = {
  id: 'KFS007',
  title: 'Tolerates a dead node forever: never replaced',
  defaultSeverity: 'info',
  docs: TAINT_DOCS,
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      if (workload.kind === 'DaemonSet') return [];
      const forever = nodeFailureTolerations(workload).filter(({ toleration }) => toleration.tolerationSeconds === undefined);
      if (forever.length === 0) return [];
      const editor = editorFor(ctx.document, workload.source);
      return forever.map(({ toleration, index }) => {
        // The not-ready taint comes from a kubelet reporting NotReady, not from a node that is gone: measured there.
        const notReady = toleration.key === NOT_READY;
        const outcome = notReady ? ctx.simulations.outcome(workload, ctx.workspace, ctx.timing, 'kubelet-not-ready') : simulated(ctx, workload);
        const text = outcome ? `${outageText(outcome).headline} ${notReady ? 'if its kubelet reports NotReady' : 'if its node fails'}: ` : '';
        const effect = notReady ? workloadEffect(workload, 'not-ready-outage') : outageEffect(workload);
        const path = [...podSpecPath(workload), 'tolerations', index];
        const what = toleration.key ? `the ${toleration.key} NoExecute taint` : 'every taint';
        // tolerationSeconds needs effect NoExecute. A toleration of every taint gets no fix: only one written
        // before it would count (the first matching toleration decides), and NoExecute alone would stop it tolerating the rest.
        // Not preferred for the not-ready taint: containers that still serve behind a NotReady kubelet
        // keep their endpoints (SEMANTICS.md 13.5), so an eviction can only lengthen the simulated outage.
        // Nor for a bare Pod or a StatefulSet: evicted, the one is lost for good, the other stays Terminating.
        const preferred = !notReady && workload.kind !== 'Pod' && workload.kind !== 'StatefulSet';
        const fixes = toleration.effect === 'NoExecute'
          ? fix('Add tolerationSeconds: 300', [editor.setEntry(path, 'tolerationSeconds', 300)], { preferred, effect })
          : toleration.key
            ? fix('Add effect: NoExecute and tolerationSeconds: 300', isWritten(workload, [...path, 'effect'])
              // An effect written empty (effect: ""): its value is set, the rest of the toleration (and its comments) kept.
              ? [editor.setEntry(path, 'effect', 'NoExecute'), editor.setEntry(path, 'tolerationSeconds', 300)]
              : [editor.addEntries(path, { effect: 'NoExecute', tolerationSeconds: 300 })], { preferred, effect })
            : undefined;
        const replaced = workload.kind === 'Pod' ? 'nothing replaces it (a bare Pod is never recreated: evicted, it would be lost for good)'
          : workload.kind === 'StatefulSet' ? 'its controller never replaces it (evicted, it would stay Terminating until its node returns: a StatefulSet creates no pod of the same name before)'
          : 'its controller never replaces it';
        const consequence = notReady
          ? `while its kubelet reports NotReady (a container runtime or network plugin down) it is never evicted and ${replaced}, whether or not its containers still serve.`
          : `it is never evicted from a dead node and ${replaced}.`;
        return base(this, workload, rangeOf(workload, toleration.key ? [...path, 'key'] : path),
          `${text}this toleration has no tolerationSeconds, so the pod tolerates ${what} forever: ${consequence}${toleration.key ? '' : ' To have it replaced, write a toleration of node.kubernetes.io/unreachable and not-ready with effect NoExecute and tolerationSeconds before this one.'}`,
          { fixes });
      });
    });
  },
};

export const defaultTolerations: Rule = {
  id: 'KFS008',
  title: 'Where the 300s come from: DefaultTolerationSeconds',
  defaultSeverity: 'info',
  docs: 'https://kubernetes.io/docs/reference/access-authn-authz/admission-controllers/#defaulttolerationseconds',
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      if (workload.kind !== 'Deployment' && workload.kind !== 'StatefulSet') return [];
      const written = nodeFailureTolerations(workload);
      if (written.length > 0) return [];
      const { defaultUnreachableTolerationSeconds: unreachable, defaultNotReadyTolerationSeconds: notReady } = ctx.timing.apiServer;
      const outcome = simulated(ctx, workload);
      const evicted = outcome?.summary.podDeletionMs;
      const editor = editorFor(ctx.document, workload.source);
      // No default toleration at all where the plugin is off: the pods go as soon as the node is tainted, and the fix writes the usual 300 s.
      const disabled = unreachable.via === DISABLED_ADMISSION;
      const seconds = (knob: typeof unreachable) => (disabled ? API_SERVER_KNOBS.defaultUnreachableTolerationSeconds.defaultValue() : knob.value);
      const tolerations = [
        { key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds(unreachable) },
        { key: NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds(notReady) },
      ];
      if (disabled) {
        return [base(this, workload, kindRange(workload),
          `Its pods get no toleration of a dead node: the API server's DefaultTolerationSeconds admission is disabled (${unreachable.source})${evicted !== null && evicted !== undefined ? `, so a pod on a failed node is deleted about ${approx(evicted)} after the failure, as soon as its node is tainted` : ''}. Write the tolerations to keep pods through a short outage.`,
          { fixes: fix('Write tolerations of a dead node (300s)', [editor.appendItems([...podSpecPath(workload), 'tolerations'], tolerations)], { effect: outageEffect(workload) }) })];
      }
      return [base(this, workload, kindRange(workload),
        `Its pods get tolerationSeconds ${unreachable.value} for a dead node from the API server's DefaultTolerationSeconds admission (--default-unreachable-toleration-seconds=${unreachable.value}, ${unreachable.source})${evicted !== null && evicted !== undefined ? `: a pod on a failed node is deleted about ${approx(evicted)} after the failure` : ''}. Write the tolerations to choose the delay per workload.`,
        { fixes: fix(`Write the tolerations the API server adds (${unreachable.value}s)`, [editor.appendItems([...podSpecPath(workload), 'tolerations'], tolerations)], { effect: outageEffect(workload) }) })];
    });
  },
};

export const daemonSetWaits: Rule = {
  id: 'KFS009',
  title: 'DaemonSet pods stay on a failed node',
  defaultSeverity: 'info',
  docs: 'https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/#taints-and-tolerations',
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      if (workload.kind !== 'DaemonSet') return [];
      const outcome = simulated(ctx, workload);
      const notReady = outcome?.summary.podsNotReadyMs;
      const cause = outcome?.summary.cause;
      if (cause?.kind === 'daemon-pod-deleted' && cause.tolerationSeconds !== null && outcome!.summary.podDeletionMs !== null) {
        return [base(this, workload, kindRange(workload),
          `Its pod on a failed node is evicted at ${approx(outcome!.summary.podDeletionMs)}: a written toleration of the node's taint with tolerationSeconds ${cause.tolerationSeconds} is read before the DaemonSet's own one without seconds. No other node runs it instead; it runs again only when the node returns.`)];
      }
      return [base(this, workload, kindRange(workload),
        `Its pod on a failed node is never evicted or moved (DaemonSet pods tolerate the node taints forever): it turns NotReady${notReady !== null && notReady !== undefined ? ` at ${approx(notReady)}` : ''} and serves again only when the node returns. Expected for a DaemonSet.`)];
    });
  },
};

/** Topology keys whose pod anti-affinity keeps replicas off one node (KFS010). */
const SPREADING_KEYS = new Set([HOSTNAME_LABEL, ZONE_LABEL, 'failure-domain.beta.kubernetes.io/zone']);

export const packedReplicas: Rule = {
  id: 'KFS010',
  title: 'Nothing spreads the replicas: one node failure can take them all',
  defaultSeverity: 'warning',
  docs: 'https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/',
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      // An autoscaler's minReplicas counts: it keeps that many pods, whatever spec.replicas says.
      const pods = fewestPods(workload, ctx.workspace);
      if (!hasReplicas(workload) || pods < 2) return [];
      const { affinity, topologySpreadConstraints } = workload.template.spec;
      // Only a term that selects the workload's own pods spreads them.
      const own = (selector: LabelSelector | undefined) => selector !== undefined && matchesLabelSelector(selector, workload.template.labels);
      // A term counts the pods of its namespaces (none: the pod's own), as the simulated scheduler does.
      const withSelector = features.podAffinityNamespaceSelector(ctx.timing.version.minor);
      const ownNamespace = (term: PodAffinityTerm) => termNamespaces(term, workload.namespace, withSelector, namespaceLabels(ctx.workspace.namespaces))(workload.namespace);
      const antiAffinity = [...affinity.podAntiAffinityRequired, ...affinity.podAntiAffinityPreferred.map((p) => p.term)];
      if (topologySpreadConstraints.some((c) => own(c.labelSelector)) || antiAffinity.some((term) => SPREADING_KEYS.has(term.topologyKey) && own(term.labelSelector) && ownNamespace(term))) return [];
      // Pinned to one node by its selector, it cannot be spread: KFS004 says so.
      if (selectedNodes(workload, ctx.workspace).nodes.length === 1) return [];
      const outcome = ctx.simulations.outcome(workload, ctx.workspace, ctx.timing, 'worst-placement');
      if (!outcome || outcome.summary.unavailableMs === 0) return [];
      const text = outageText(outcome);
      const down = text.open ? 'until the node returns or someone acts' : `for about ${approx(outcome.summary.unavailableMs)}`;
      const where = outcome.nodesBefore <= 1 ? 'on one node' : `on ${outcome.nodesBefore} nodes`;
      // The scheduler's default constraints apply only to a pod that has none of its own (PodTopologySpread's system defaults).
      const keptApart = topologySpreadConstraints.length > 0
        ? 'its topologySpreadConstraints count other pods and take the place of the scheduler\'s default spreading: only its scoring of free room keeps them apart'
        : 'only the scheduler\'s default spreading, soft and of maxSkew 3, keeps them apart';
      const editor = editorFor(ctx.document, workload.source);
      // The workload's own selector, not every template label: a version label would split old and new pods in a rollout.
      const { matchLabels, matchExpressions } = workload.selector;
      const selects = Object.keys(matchLabels).length > 0 || matchExpressions.length > 0;
      const labelSelector = selects
        ? { ...(Object.keys(matchLabels).length > 0 ? { matchLabels: { ...matchLabels } } : {}), ...(matchExpressions.length > 0 ? { matchExpressions: matchExpressions.map((e) => ({ ...e })) } : {}) }
        : { matchLabels: { ...workload.template.labels } };
      const constraint = { maxSkew: 1, topologyKey: HOSTNAME_LABEL, whenUnsatisfiable: 'ScheduleAnyway', labelSelector };
      const fixes = Object.keys(labelSelector.matchLabels ?? {}).length === 0 && !labelSelector.matchExpressions ? undefined
        : fix('Spread the replicas over nodes (topologySpreadConstraints on kubernetes.io/hostname, maxSkew 1, ScheduleAnyway)', [editor.appendItems([...podSpecPath(workload), 'topologySpreadConstraints'], [constraint])],
          { preferred: true, effect: workloadEffect(workload, 'worst-placement-outage') });
      return [base(this, workload, isWritten(workload, ['spec', 'replicas']) ? rangeOf(workload, ['spec', 'replicas']) : kindRange(workload),
        `If the scheduler packs its ${pods}${autoscalerOf(workload, ctx.workspace) ? ' or more' : ''} replicas ${where} (${keptApart}), that node's failure takes all of them down ${down}; spread them: a topologySpreadConstraint of their own over kubernetes.io/hostname (ScheduleAnyway with maxSkew 1 never leaves a replacement Pending).`,
        { explanation: `Simulated with the pods packed onto as few nodes as the filters allow${ctx.workspace.nodes.length === 0 ? `, on invented nodes with room for all ${pods} (give Node objects to simulate on yours)` : ''}: ${text.because}. Without topologySpreadConstraints or pod anti-affinity on kubernetes.io/hostname (or a zone), only the scheduler's default scoring spreads them, and it gives way to free capacity, node affinity and taints.`, fixes })];
    });
  },
};

export const readWriteOnceVolume: Rule = {
  id: 'KFS011',
  title: 'ReadWriteOnce volume stays attached to a failed node',
  defaultSeverity: 'warning',
  docs: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#access-modes',
  check(ctx) {
    const findings: Finding[] = [];
    for (const workload of ctx.document.model.workloads) {
      if (!hasReplicas(workload)) continue;
      const claims: { path: (string | number)[]; name: string; mode?: string; unknown?: boolean; inline?: boolean; related?: Finding['related'] }[] = [];
      // The mode the message names: ReadWriteOncePod where that is what the claim asks for.
      const modeOf = (accessModes: string[]) => (accessModes.includes('ReadWriteOncePod') ? 'ReadWriteOncePod' : 'ReadWriteOnce');
      podVolumes(workload).forEach(({ volume, index: i }) => {
        if (volume.disk?.exclusive) claims.push({ path: [...podSpecPath(workload), 'volumes', i, volume.disk.type], name: diskName(volume.disk), inline: true });
        if (volume.source !== 'persistentVolumeClaim' || !volume.claimName || localVolumeOf(workload.namespace, volume.claimName, ctx.workspace)) return;
        const pvc = claimOf(workload.namespace, volume.claimName, ctx.workspace);
        if (pvc && !isExclusive(pvc.accessModes)) return;
        const location = pvc && ctx.locate(pvc.source);
        claims.push({ path: [...podSpecPath(workload), 'volumes', i, 'persistentVolumeClaim', 'claimName'], name: volume.claimName, mode: pvc && modeOf(pvc.accessModes), unknown: !pvc, related: location ? [{ location, message: `PersistentVolumeClaim ${pvc.name}: ${pvc.accessModes.join(', ') || 'ReadWriteOnce'}` }] : undefined });
      });
      if (workload.kind === 'StatefulSet') {
        workload.volumeClaimTemplates.forEach((template, i) => {
          if (isExclusive(template.accessModes) && !isLocalClass(template.storageClassName, ctx.workspace)) claims.push({ path: ['spec', 'volumeClaimTemplates', i, 'spec', 'accessModes'], name: template.name, mode: modeOf(template.accessModes) });
        });
      }
      if (claims.length === 0) continue;
      const outcome = simulated(ctx, workload);
      const cause = outcome?.summary.cause;
      const simulatedText = cause?.kind === 'volume-attached-elsewhere'
        ? `simulated: replacement ${cause.pod} waits in ContainerCreating (Multi-Attach error) for the whole ${formatDuration(outcome!.durationMs)}`
        : outcome ? `simulated: ${outageText(outcome).headline.toLowerCase()}` : '';
      for (const claim of claims) {
        findings.push(base(this, workload, rangeOf(workload, claim.path),
          `${claim.unknown ? `If claim ${claim.name} (not among the inputs) is ReadWriteOnce, its volume` : claim.inline ? `Disk ${claim.name}, attached to one node at a time,` : `${claim.mode ?? 'ReadWriteOnce'} volume ${claim.name}`} stays attached to a powered-off node: a new pod cannot attach it while the old pod object exists, and only 6 minutes after that object is gone does the attach-detach controller force-detach it (at once with the out-of-service taint)${simulatedText ? `; ${simulatedText}` : ''}.`,
          { related: claim.related }));
      }
    }
    return findings;
  },
};

/** What every pod of the workload mounts that one node at a time can attach, as a message names it: a ReadWriteOnce claim of the input (or one without access modes), or an inline disk. */
function sharedExclusiveClaim(workload: Sourced<Workload>, ctx: RuleContext): string | undefined {
  for (const { volume } of podVolumes(workload)) {
    if (volume.disk?.exclusive) return `disk ${diskName(volume.disk)}`;
    if (volume.source !== 'persistentVolumeClaim' || !volume.claimName) continue;
    const pvc = claimOf(workload.namespace, volume.claimName, ctx.workspace);
    if (pvc && isExclusive(pvc.accessModes)) return `ReadWriteOnce claim ${pvc.name}`;
  }
  return undefined;
}

/** A claim the workload's pods mount that no input defines (the simulator takes it as ReadWriteOnce). */
function unknownClaim(workload: Sourced<Workload>, ctx: RuleContext): string | undefined {
  for (const { volume } of podVolumes(workload)) {
    if (volume.source === 'persistentVolumeClaim' && volume.claimName && !claimOf(workload.namespace, volume.claimName, ctx.workspace)) return volume.claimName;
  }
  return undefined;
}

function isExclusive(accessModes: string[]): boolean {
  return accessModes.length === 0 || accessModes.includes('ReadWriteOnce') || accessModes.includes('ReadWriteOncePod');
}
