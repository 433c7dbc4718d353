/**
 * The guided "Simulate Node Failure…" in the editor, as data: each step's options in plain words
 * with a line on what follows, and the request the answers make. The extension shows the picks;
 * this decides what they say and mean, so tests can read it.
 */
import { ZONE_LABEL } from '../cluster/clusterSpec';
import { CONTROLLER_MANAGER_KNOBS } from '../cluster/controllerManagerConfiguration';
import { NEWEST_MINOR, OLDEST_MINOR, parseKubernetesVersion } from '../cluster/kubernetesVersion';
import { PRESETS } from '../cluster/presets';
import { formatDuration } from '../manifest/duration';
import type { FailureKind, Intervention, Placement } from '../sim/scenario';
import { toScenarioIntervention, type ScenarioFile } from './scenarioFile';
import { defaultChoices, type SimulationChoices } from './simulationChoices';
import { workloadLabeler } from '../report/workloadLabel';
import type { ObjectRef } from '../sim/trace';

export interface Option<T> {
  label: string;
  detail: string;
  value: T;
}

export const FAILURE_OPTIONS: readonly Option<FailureKind>[] = [
  { value: 'power-off', label: 'Power off the node', detail: 'Containers, kubelet and network stop at once. The control plane only notices that heartbeats stop.' },
  { value: 'kubelet-stop', label: 'Stop the kubelet, containers keep running', detail: 'The node looks dead to the control plane while its pods go on serving whoever can still reach them.' },
  { value: 'partition', label: 'Cut the node off the network', detail: 'Kubelet and containers keep running unseen: replacements may start while the old copies still run.' },
  { value: 'kubelet-not-ready', label: 'The kubelet reports NotReady (runtime down)', detail: 'The lease stays fresh; pods are not marked NotReady and endpoints keep routing until they are evicted.' },
  { value: 'disk-failure', label: 'The disk fails, the node stays Ready', detail: 'Nothing is evicted: readiness probes remove the pods from endpoints, liveness restarts loop.' },
  { value: 'graceful-shutdown', label: 'Shut the node down gracefully', detail: 'With its kubelet\'s shutdownGracePeriod set, the kubelet stops pods first: they end Failed and are replaced at once. It is 0s by default, and then this is a power-off.' },
  { value: 'zone-outage', label: 'Lose a whole zone', detail: 'Every node of the zone powers off; eviction slows down or stops by zone state.' },
];

/**
 * What fails: a workload's node, a node, or every node of a zone. A zone outage takes whole
 * zones only: a workload's node stands for its zone (the simulator fails the zone of a workload
 * or node target), and each zone is offered by name.
 */
export function targetOptions(workloads: readonly ObjectRef[], nodes: readonly { name: string; labels: Record<string, string> }[], failure?: FailureKind): Option<string[]>[] {
  const label = workloadLabeler(workloads);
  const zones = new Map<string, string[]>();
  for (const node of nodes) {
    const zone = node.labels[ZONE_LABEL];
    if (zone) zones.set(zone, [...(zones.get(zone) ?? []), node.name]);
  }
  if (failure === 'zone-outage') {
    // Without zone labels there is no zone to take down: nothing to offer.
    if (zones.size === 0) return [];
    return [
      ...workloads.map((w) => ({ label: `The zone of the node that runs ${label(w)}`, detail: 'Every node of the zone of its first pod powers off at the same instant.', value: [label(w)] })),
      ...[...zones].map(([zone, names]) => ({ label: `Zone ${zone}`, detail: `${names.join(', ')} power off at the same instant.`, value: [`zone/${zone}`] })),
    ];
  }
  const options: Option<string[]>[] = workloads.map((w) => ({
    label: `The node that runs ${label(w)}`,
    detail: 'The node of its first pod; its other pods on that node fail too.',
    value: [label(w)],
  }));
  for (const node of nodes) options.push({ label: `Node ${node.name}`, detail: node.labels[ZONE_LABEL] ? `In ${node.labels[ZONE_LABEL]}.` : 'A node of the cluster.', value: [`node/${node.name}`] });
  for (const [zone, names] of zones) {
    if (names.length > 1) options.push({ label: `Every node of ${zone}`, detail: `${names.join(', ')} fail at the same instant (a zone outage).`, value: names.map((n) => `node/${n}`) });
  }
  return options;
}

/** The version the folder's files say ("1.29") and where (Workspace.folderVersion). */
export interface FolderVersion {
  version: string;
  source: string;
}

/** The source of a version or preset chosen in the guided picks (the timing table says where each value comes from). */
export const PICK_SOURCE = 'Simulate Node Failure… pick';

/**
 * Which Kubernetes version's defaults: the setting's first (or, with none, the folder's: a kubeadm
 * ClusterConfiguration, else a control-plane image tag, else the newest known; value ''), then every known version, newest first,
 * each with the default that differs between them.
 */
export function versionOptions(setting: string, folder?: FolderVersion): Option<string>[] {
  const describe = (minor: number) => `Kubernetes 1.${minor} (node-monitor-grace-period ${formatDuration(CONTROLLER_MANAGER_KNOBS.nodeMonitorGracePeriod.defaultValue(minor))})`;
  const parsed = parseKubernetesVersion(setting);
  const chosen = typeof parsed === 'string' ? undefined : parsed.minor;
  // A setting the simulator cannot use is said as such, not taken for an empty one.
  const unusable = setting.trim() !== '' && typeof parsed === 'string' ? `your setting kubeFailureSim.kubernetesVersion "${setting}" cannot be used: ${parsed.replace(/\.$/, '')}` : 'setting kubeFailureSim.kubernetesVersion is empty';
  const folderParsed = folder && parseKubernetesVersion(folder.version);
  const folderMinor = chosen === undefined && folderParsed && typeof folderParsed !== 'string' ? folderParsed.minor : undefined;
  const first: Option<string> = chosen !== undefined ? { value: `1.${chosen}`, label: describe(chosen), detail: 'Your setting kubeFailureSim.kubernetesVersion.' }
    // The version the run will take, said as such: the folder's, else the newest known.
    : folder && folderMinor !== undefined ? { value: '', label: `The folder's version: ${describe(folderMinor)}`, detail: `From ${folder.source} (${unusable}).` }
      : { value: '', label: `The newest version: ${describe(NEWEST_MINOR)}`, detail: `No kubeadm ClusterConfiguration's kubernetesVersion or control-plane image tag in the folder says one (${unusable}).` };
  const others: Option<string>[] = [];
  for (let minor = NEWEST_MINOR; minor >= OLDEST_MINOR; minor--) {
    if (minor === chosen || minor === folderMinor) continue;
    const grace = formatDuration(CONTROLLER_MANAGER_KNOBS.nodeMonitorGracePeriod.defaultValue(minor));
    others.push({ value: `1.${minor}`, label: describe(minor), detail: `Nodes are marked Unknown after ${grace} without a heartbeat (${minor >= 32 ? 'from 1.32' : 'up to 1.31'}).` });
  }
  return [first, ...others];
}

const PRESET_LABELS: Record<string, string> = {
  none: 'The version\'s defaults (no preset)',
  default: 'Common defaults (preset default)',
  fast: 'Fast failure detection (preset fast)',
  medium: 'Medium failure detection (preset medium)',
  slow: 'Slow failure detection (preset slow)',
};

/** Which timing preset: the setting's first (`none`: the version's defaults), then the others, each with its values. */
export function presetOptions(setting: string): Option<string>[] {
  const names = ['none', ...Object.keys(PRESETS)];
  const current = names.includes(setting) ? setting : 'none';
  const detail = (name: string) => (name === 'none' ? 'kubelet and kube-controller-manager as the Kubernetes version ships them' : Object.entries(PRESETS[name]).filter(([knob]) => knob !== 'kcm.pod-eviction-timeout').map(([knob, value]) => `${knob.slice(knob.indexOf('.') + 1)} ${value}`).join(', '));
  return [current, ...names.filter((n) => n !== current)].map((name) => ({
    value: name, label: PRESET_LABELS[name] ?? `Preset ${name}`, detail: `${detail(name)}${name === current ? ' — your setting kubeFailureSim.profile' : ''}`,
  }));
}

/** When the node comes back; undefined: the user types a duration. */
/**
 * When the node may come back, each time said against the failed pods' toleration of the
 * unreachable taint: the target workload's own (`seconds`, null: forever), else the API server's default (`defaultSeconds`).
 */
export function returnOptions(seconds: number | null | undefined, defaultSeconds: number): Option<number | null | undefined>[] {
  const own = seconds !== undefined;
  const tolerated = own ? seconds : defaultSeconds;
  const whose = own ? 'its' : 'the default';
  return [
    { value: null, label: 'The node never comes back', detail: 'See whether the workload recovers on its own, and how long that takes.' },
    ...[1, 2, 5, 10].map((minutes) => ({
      value: minutes * 60_000,
      label: `It comes back after ${minutes} minute${minutes === 1 ? '' : 's'}`,
      detail: tolerated === null ? `Its pods tolerate the unreachable taint forever: they stay where they are.`
        : minutes * 60 < tolerated ? `Before ${whose} tolerationSeconds (${formatDuration(tolerated * 1000)}) run out: pods stay where they are.`
        : `After ${whose} tolerationSeconds (${formatDuration(tolerated * 1000)}): evicted pods may already be replaced.`,
    })),
    { value: undefined, label: 'It comes back after…', detail: 'Type a duration such as 90s or 7m.' },
  ];
}

export type InterventionKind = Intervention['kind'];

export const INTERVENTION_OPTIONS: readonly (Option<InterventionKind> & { defaultAt: string; prompt: string })[] = [
  { value: 'force-delete', label: 'Force-delete the stuck pods', detail: 'kubectl delete pod --force --grace-period=0 of the pods on the failed nodes.', defaultAt: '6m', prompt: 'Force-delete the pods on the failed nodes this long after the failure' },
  { value: 'out-of-service', label: 'Taint the node out-of-service', detail: 'node.kubernetes.io/out-of-service=nodeshutdown:NoExecute: pods and volumes are released at once.', defaultAt: '6m', prompt: 'Add the out-of-service taint this long after the failure' },
  { value: 'delete-node', label: 'Delete the Node object', detail: 'kubectl delete node: the pod garbage collector removes its pods.', defaultAt: '10m', prompt: 'Delete the Node object this long after the failure' },
];

/** Everything a run needs besides the documents: kept with the panel to run it again. */
export interface SimulationRequest {
  failure: FailureKind;
  targets: string[];
  recoverAfterMs?: number;
  interventions: Intervention[];
  durationMs?: number;
  /** "1.31"; absent or '': the folder's (the settings, a ClusterConfiguration, else the newest known). */
  kubernetesVersion?: string;
  /** A preset name or "none" (the version's defaults); absent: the settings'. */
  profile?: string;
  placement?: Placement;
  seed?: number;
}

/**
 * A deletion of the stuck pods: with a workload target, that workload's pods on the failed nodes;
 * with nodes or zones, every pod on them; with none, the first workload's (the one whose node the
 * default target fails).
 */
export function interventions(kind: InterventionKind, atMs: number, targets: readonly string[], firstWorkload: string | undefined): Intervention[] {
  if (kind !== 'force-delete' && kind !== 'delete') return [{ kind, atMs }];
  const workload = targets.find((t) => !t.startsWith('node/') && !t.startsWith('zone/'));
  const places = targets.filter((t) => t.startsWith('node/') || t.startsWith('zone/'));
  const deleted = workload !== undefined || places.length === 0 ? [workload ?? firstWorkload ?? ''] : places;
  return deleted.map((target) => ({ kind, target, atMs }));
}

/** What is simulated after the last return or intervention a run schedules, so that its effect shows. */
const AFTER_THE_LAST_ACTION_MS = 5 * 60_000;

/**
 * A picked run has no duration of its own: the default 20 minutes, or longer to show what follows
 * a return or an intervention picked later than that ("the node returns after 30 minutes").
 */
export function requestDuration(request: SimulationRequest): number {
  if (request.durationMs !== undefined) return request.durationMs;
  const last = Math.max(request.recoverAfterMs ?? 0, ...request.interventions.map((i) => i.atMs));
  return Math.max(defaultChoices().durationMs, last > 0 ? last + AFTER_THE_LAST_ACTION_MS : 0);
}

export function requestChoices(request: SimulationRequest, documents?: string[]): SimulationChoices {
  const defaults = defaultChoices();
  return {
    ...defaults,
    failure: request.failure,
    targets: request.targets,
    recoverAfterMs: request.recoverAfterMs,
    interventions: request.interventions,
    durationMs: requestDuration(request),
    ...(request.durationMs === undefined ? { lengthenForTolerations: true } : {}),
    placement: request.placement,
    seed: request.seed ?? defaults.seed,
    documents,
    timing: request.kubernetesVersion || request.profile !== undefined ? {
      version: request.kubernetesVersion ? { value: request.kubernetesVersion, source: PICK_SOURCE } : undefined,
      profile: request.profile === undefined ? undefined : request.profile === 'none' ? null : request.profile,
    } : undefined,
  };
}

/**
 * What an editor's run used besides its picks: a scenario's run replaces the editor's settings,
 * so a scenario saved from the run writes them down.
 */
export interface RunSettings {
  /** The run's Kubernetes version and preset, as its report gives them. */
  k8sVersion: string;
  profile: string | null;
  /** kubeFailureSim.timing when the run started: knob → value as written. */
  timing: Record<string, string>;
}

/**
 * A scenario file for a request: `manifests` relative to where the file goes, the simulated
 * manifest first, then the files of the folder its run read (Workspace.contextDocuments).
 */
export function requestScenarioFile(name: string, manifests: string[], request: SimulationRequest, ran?: RunSettings): ScenarioFile {
  const at = (ms: number) => formatDuration(ms);
  return {
    name,
    manifests,
    failure: request.failure,
    targets: request.targets.length > 0 ? request.targets : undefined,
    recoverAfter: request.recoverAfterMs === undefined ? undefined : at(request.recoverAfterMs),
    interventions: request.interventions.length > 0 ? request.interventions.map((i) => toScenarioIntervention(i, at)) : undefined,
    placement: request.placement,
    duration: at(requestDuration(request)),
    profile: request.profile === 'none' ? undefined : request.profile ?? ran?.profile ?? undefined,
    kubernetesVersion: request.kubernetesVersion || ran?.k8sVersion || undefined,
    set: ran && Object.keys(ran.timing).length > 0 ? { ...ran.timing } : undefined,
    seed: request.seed,
  };
}
