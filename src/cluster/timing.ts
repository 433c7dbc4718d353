/**
 * One typed timing configuration: a record per component (kubelet, kube-controller-manager,
 * kube-apiserver, the simulator) whose fields know their own name, unit and per-version
 * default and say where their value came from. Values resolve in order: the version's
 * defaults, the preset, then settings (cluster configuration files, then overrides).
 * `deriveTiming` is the one place that computes values that follow from others.
 */
import { formatDuration, parseDuration } from '../manifest/duration';
import type { SourceLocation } from '../manifest/range';
import { flagIntWithin, isDecimalNumber, MAX_INT64_TEXT, MIN_INT64_TEXT } from '../manifest/limits';
import { describeSuggestions } from '../manifest/suggest';
import { API_SERVER_KNOBS } from './apiServerConfiguration';
import { CONTROLLER_MANAGER_KNOBS, legacyPodEviction } from './controllerManagerConfiguration';
import { absentIn, type Knob, type KnobSpec, type KnobSpecs, type Resolved } from './knobSpec';
import { KUBELET_KNOBS } from './kubeletConfiguration';
import type { KubernetesVersion } from './kubernetesVersion';
import { PRESETS } from './presets';
import { SIMULATOR_KNOBS } from './simulatorParameters';

export const COMPONENTS = [
  { component: 'kubelet', prefix: 'kubelet', specs: KUBELET_KNOBS },
  { component: 'controllerManager', prefix: 'kcm', specs: CONTROLLER_MANAGER_KNOBS },
  { component: 'apiServer', prefix: 'apiserver', specs: API_SERVER_KNOBS },
  { component: 'simulator', prefix: 'sim', specs: SIMULATOR_KNOBS },
] as const;

export type ComponentKey = (typeof COMPONENTS)[number]['component'];

/** Values that follow from the settings. */
export interface DerivedTiming {
  /** pkg/kubelet nodeLeaseRenewIntervalFraction: the lease is renewed every quarter of its duration. */
  leaseRenewIntervalMs: number;
  /** nodeStatusReportFrequency was not set and follows an explicitly set nodeStatusUpdateFrequency. */
  statusReportFollowsUpdate: boolean;
  /** Heartbeat writes of one node (SEMANTICS.md 12): lease renewals, and unchanged status posts. */
  leaseWritesPerNodePerSecond: number;
  statusWritesPerNodePerSecond: number;
}

export interface TimingConfiguration {
  readonly version: KubernetesVersion;
  /** Where the version came from: "newest known", a setting, a kubeadm ClusterConfiguration's file:line. */
  readonly versionSource: string;
  readonly profile?: string;
  readonly kubelet: Resolved<typeof KUBELET_KNOBS>;
  readonly controllerManager: Resolved<typeof CONTROLLER_MANAGER_KNOBS>;
  readonly apiServer: Resolved<typeof API_SERVER_KNOBS>;
  readonly simulator: Resolved<typeof SIMULATOR_KNOBS>;
  readonly derived: DerivedTiming;
  /** Settings that were accepted but have no effect, in plain words. */
  readonly notes: readonly string[];
}

/** A setting as written, by its qualified name (`kcm.node-monitor-grace-period`). */
export interface TimingSetting {
  name: string;
  /** As written: "40s", "0.1", 300, true. */
  value: string | number | boolean;
  source: string;
  /** Where it is written, when it comes from a file. */
  location?: SourceLocation;
  /** A file's setting that older versions of its component refuse. */
  requires?: { minor: number; problem: string };
  /** The flag that set it when it is not the knob's own (--disable-admission-plugins). */
  via?: string;
}

export interface TimingRequest {
  version: KubernetesVersion;
  versionSource?: string;
  profile?: string;
  /** Applied in order after the preset: cluster files first, then overrides. */
  settings: readonly TimingSetting[];
  /** Lenient resolution: a bad setting is reported here and skipped instead of thrown. */
  onError?: (error: TimingError) => void;
}

export class TimingError extends Error {
  /** The setting at fault; none for an unknown profile. */
  constructor(message: string, readonly setting?: TimingSetting) {
    super(message);
  }
}

/** A knob by its qualified name: the component's prefix and the knob's own name. */
export interface KnobRef {
  component: ComponentKey;
  field: string;
  qualifiedName: string;
  spec: KnobSpec;
}

export const ALL_KNOBS: readonly KnobRef[] = COMPONENTS.flatMap(({ component, prefix, specs }) =>
  Object.entries(specs as KnobSpecs).map(([field, spec]) => ({ component, field, qualifiedName: `${prefix}.${spec.name}`, spec })));

const BY_QUALIFIED_NAME = new Map(ALL_KNOBS.map((ref) => [ref.qualifiedName, ref]));

export function findKnob(qualifiedName: string): KnobRef | undefined {
  return BY_QUALIFIED_NAME.get(qualifiedName);
}

/** The qualified name of a component's own setting (a KubeletConfiguration field, a flag), if the simulator knows it. */
export function knobOfComponent(component: ComponentKey, ownName: string): KnobRef | undefined {
  const prefix = COMPONENTS.find((c) => c.component === component)!.prefix;
  return BY_QUALIFIED_NAME.get(`${prefix}.${ownName}`);
}

/** Every knob of a resolved configuration, in the order of ALL_KNOBS. */
export function knobsOf(timing: TimingConfiguration): { ref: KnobRef; knob: Knob }[] {
  return ALL_KNOBS.map((ref) => ({ ref, knob: (timing[ref.component] as Record<string, Knob>)[ref.field] }));
}

/** The source of a knob nobody set (as resolveTiming words it): a version's default, the simulator's, or a flag the version does not have. */
export function isUnsetSource(source: string): boolean {
  return / default$|^not a setting of /.test(source);
}

export function resolveTiming(request: TimingRequest): TimingConfiguration {
  const { version } = request;
  const records = {} as Record<ComponentKey, Record<string, Knob>>;
  for (const { component, specs } of COMPONENTS) {
    const record: Record<string, Knob> = {};
    // The simulator's own parameters are its assumptions, not a Kubernetes release's defaults.
    const source = component === 'simulator' ? 'simulator default' : `Kubernetes ${version.label} default`;
    for (const [field, spec] of Object.entries(specs as KnobSpecs)) {
      record[field] = { value: spec.defaultValue(version.minor), source: absentIn(spec, version.minor) ? `not a setting of Kubernetes ${version.label}` : source, spec };
    }
    records[component] = record;
  }

  const applied: TimingSetting[] = [];
  if (request.profile !== undefined) {
    const preset = PRESETS[request.profile];
    if (!preset) throw new TimingError(`Unknown profile "${request.profile}"; profiles: ${Object.keys(PRESETS).join(', ')}.`);
    for (const [name, value] of Object.entries(preset)) applied.push({ name, value, source: `preset ${request.profile}` });
  }
  applied.push(...request.settings);

  const notes: string[] = [];
  const explicit = new Map<Knob, TimingSetting>();
  for (const setting of applied) {
    let knob: Knob;
    let ref: KnobRef | undefined;
    try {
      ref = findKnob(setting.name);
      if (!ref) throw new TimingError(`Unknown setting "${setting.name}" (${setting.source}); ${suggestKnob(setting.name)}`, setting);
      // What a file writes that its component's version does not know (a --set is only noted: noEffect).
      const requires = setting.requires ?? (setting.location ? ref.spec.requires : undefined);
      if (requires && version.minor < requires.minor) throw new TimingError(`${requires.problem} in ${version.label} (${setting.source}).`, setting);
      knob = { value: parseKnobValue(ref, setting), source: setting.source, spec: ref.spec, ...(setting.via ? { via: setting.via } : {}) };
    } catch (error) {
      if (!(error instanceof TimingError) || !request.onError) throw error;
      request.onError(error);
      continue;
    }
    records[ref.component][ref.field] = knob;
    explicit.set(knob, setting);
    const noEffect = ref.spec.noEffect?.(version.minor);
    if (noEffect && !notes.includes(noEffect)) notes.push(noEffect);
  }
  // ValidateKubeletConfiguration: the critical pods' share of a shutdown cannot exceed the whole; such a kubelet does not start.
  const { shutdownGracePeriod: total, shutdownGracePeriodCriticalPods: critical } = records.kubelet;
  if ((critical.value as number) > (total.value as number)) {
    // Lenient resolution (the editor, check) drops the share: rule KFS092 reports it at the file's field.
    if (request.onError) records.kubelet.shutdownGracePeriodCriticalPods = { ...critical, value: critical.spec.defaultValue(version.minor), source: `Kubernetes ${version.label} default` };
    else {
      throw new TimingError(`kubelet.shutdownGracePeriodCriticalPods (${formatDuration(critical.value as number)}, ${critical.source}) must not exceed kubelet.shutdownGracePeriod (${formatDuration(total.value as number)}, ${total.source}): the kubelet refuses such a configuration and does not start.`,
        explicit.get(critical) ?? explicit.get(total));
    }
  }
  // The legacy eviction path does use --pod-eviction-timeout (SEMANTICS.md 3.7).
  if (legacyPodEviction(version.minor, records.controllerManager.enableTaintManager.value as boolean)) {
    const ignored = CONTROLLER_MANAGER_KNOBS.podEvictionTimeout.noEffect(version.minor);
    if (notes.includes(ignored)) notes.splice(notes.indexOf(ignored), 1);
  }
  const partial = {
    version, versionSource: request.versionSource ?? 'newest known', profile: request.profile, notes,
    kubelet: records.kubelet, controllerManager: records.controllerManager, apiServer: records.apiServer, simulator: records.simulator,
  } as unknown as Omit<TimingConfiguration, 'derived'>;
  return deriveTiming(partial, (knob) => explicit.has(knob));
}

/** The kubelet renews its node lease every quarter of the lease's duration (in ms; the duration in seconds). */
export function leaseRenewInterval(leaseSeconds: number): number {
  return leaseSeconds * 1000 * 0.25;
}

/** The values that follow from others: the kubelet's own defaulting rule, and rates and intervals. */
export function deriveTiming(timing: Omit<TimingConfiguration, 'derived'>, isExplicit: (knob: Knob) => boolean): TimingConfiguration {
  const { nodeStatusUpdateFrequency: update, nodeStatusReportFrequency: report, nodeLeaseDurationSeconds: lease } = timing.kubelet;
  let kubelet = timing.kubelet;
  // SetDefaults_KubeletConfiguration: an explicit update frequency also becomes the report frequency.
  const statusReportFollowsUpdate = isExplicit(update) && !isExplicit(report);
  if (statusReportFollowsUpdate) {
    kubelet = { ...kubelet, nodeStatusReportFrequency: { ...report, value: update.value, source: `= kubelet.nodeStatusUpdateFrequency, set explicitly in ${update.source}` } };
  }
  const leaseRenewIntervalMs = leaseRenewInterval(lease.value);
  return {
    ...timing,
    kubelet,
    derived: {
      leaseRenewIntervalMs,
      statusReportFollowsUpdate,
      leaseWritesPerNodePerSecond: 1000 / leaseRenewIntervalMs,
      statusWritesPerNodePerSecond: 1000 / statusPostPeriodMs(kubelet.nodeStatusUpdateFrequency.value, kubelet.nodeStatusReportFrequency.value),
    },
  };
}

/**
 * How often an unchanged node status is posted: the kubelet looks every update period and posts
 * once the report period has passed since the last post (tryUpdateNodeStatus), so the report
 * period rounded up to whole update periods, and never more often than one update period.
 */
function statusPostPeriodMs(updateMs: number, reportMs: number): number {
  return updateMs > 0 ? Math.max(1, Math.ceil(reportMs / updateMs)) * updateMs : reportMs;
}

export function parseKnobValue(ref: KnobRef, setting: TimingSetting): number | boolean {
  const { spec } = ref;
  const { value } = setting;
  const fail = (expected: string): never => {
    throw new TimingError(`${ref.qualifiedName} must be ${expected}; got ${JSON.stringify(value)} (${setting.source}).`, setting);
  };
  let parsed: number;
  switch (spec.type) {
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      return fail('true or false');
    case 'duration':
      parsed = typeof value === 'string' ? parseDuration(value) ?? fail('a duration such as 40s or 1m30s') : fail('a duration such as 40s or 1m30s');
      break;
    // As the component's flag parser reads them (clusterConfig.ts checks the same in files): pflag's base 0 for integers, no 1e2 or spaces.
    case 'int': {
      const int = typeof value === 'number' ? (Number.isInteger(value) ? value : undefined) : flagIntWithin(String(value), MIN_INT64_TEXT, MAX_INT64_TEXT);
      parsed = int === undefined ? fail('a whole number') : Number(int);
      break;
    }
    case 'number':
      parsed = Number(value);
      if (typeof value === 'number' ? !Number.isFinite(value) : !isDecimalNumber(String(value))) fail('a number');
      break;
  }
  if (spec.min !== undefined && parsed < spec.min) fail(`≥ ${spec.min}${spec.type === 'duration' ? ' ms' : ''}`);
  if (spec.max !== undefined && parsed > spec.max) fail(`≤ ${spec.max}`);
  return parsed;
}

function suggestKnob(name: string): string {
  const prefix = name.split('.')[0];
  const sameComponent = ALL_KNOBS.filter((k) => k.qualifiedName.startsWith(`${prefix}.`)).map((k) => k.qualifiedName);
  if (sameComponent.length === 0) return 'settings start with kubelet., kcm., apiserver. or sim.';
  return `${describeSuggestions(name, sameComponent, `known ${prefix} settings`)}.`;
}
