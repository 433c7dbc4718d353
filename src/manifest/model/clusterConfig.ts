import { parseDuration } from '../duration';
import { flagIntUpTo, isDecimalNumber, MAX_INT32, MAX_INT64_TEXT } from '../limits';
import type { Range } from '../range';
import { nearMiss } from '../suggest';
import type { FieldReader } from './fieldReader';

/** One setting read from a cluster configuration file. */
export interface ConfigSetting {
  /** KubeletConfiguration field name, or flag name without dashes. */
  name: string;
  value: string | number | boolean;
  range: Range;
  /** The oldest minor version whose component accepts it, and what to say before. */
  requires?: { minor: number; problem: string };
  /** Another flag that sets this value (--disable-admission-plugins for the default toleration seconds). */
  via?: string;
}

export interface ClusterConfig {
  kubelet: ConfigSetting[];
  controllerManager: ConfigSetting[];
  apiServer: ConfigSetting[];
  kubernetesVersion?: ConfigSetting;
  /** The version in a control-plane image's tag (kube-controller-manager:v1.29.7), used when nothing names one. */
  imageVersion?: ConfigSetting;
}

export type ComponentName = 'kube-controller-manager' | 'kube-apiserver';

/** int32 and int: the Go type of the field or flag (an int flag is 64 bits). */
type ValueType = 'duration' | 'int32' | 'int' | 'number' | 'bool' | 'string';

/** KubeletConfiguration fields that decide failure timing (kubelet.config.k8s.io/v1beta1). */
export const KUBELET_FIELDS: Record<string, ValueType> = {
  nodeStatusUpdateFrequency: 'duration',
  nodeStatusReportFrequency: 'duration',
  nodeLeaseDurationSeconds: 'int32',
  shutdownGracePeriod: 'duration',
  shutdownGracePeriodCriticalPods: 'duration',
  evictionPressureTransitionPeriod: 'duration',
  syncFrequency: 'duration',
};

export const COMPONENT_FLAGS: Record<ComponentName, Record<string, ValueType>> = {
  'kube-controller-manager': {
    'node-monitor-period': 'duration',
    'node-monitor-grace-period': 'duration',
    'node-startup-grace-period': 'duration',
    'pod-eviction-timeout': 'duration',
    'node-eviction-rate': 'number',
    'secondary-node-eviction-rate': 'number',
    'unhealthy-zone-threshold': 'number',
    'large-cluster-size-threshold': 'int32',
    'terminated-pod-gc-threshold': 'int32',
    'disable-force-detach-on-timeout': 'bool',
    'enable-taint-manager': 'bool',
  },
  'kube-apiserver': {
    'default-not-ready-toleration-seconds': 'int',
    'default-unreachable-toleration-seconds': 'int',
  },
};

const ZERO_IS_UNSET: ReadonlySet<string> = new Set(['nodeStatusUpdateFrequency', 'nodeStatusReportFrequency', 'nodeLeaseDurationSeconds']);

/** The only version of KubeletConfiguration there is; the kubelet does not start with another. */
export const KUBELET_CONFIG_API_VERSION = 'kubelet.config.k8s.io/v1beta1';

export function readKubeletConfiguration(r: FieldReader, apiVersion: string): ConfigSetting[] {
  if (apiVersion !== KUBELET_CONFIG_API_VERSION) {
    r.report(['apiVersion'], `KubeletConfiguration is served as ${KUBELET_CONFIG_API_VERSION} only: the kubelet does not start with apiVersion ${apiVersion} (no kind KubeletConfiguration is registered for that version).`);
    return [];
  }
  // A misspelt field: the kubelet decodes leniently, ignores it and logs that strict decoding failed.
  const known = [...Object.keys(KUBELET_FIELDS), 'shutdownGracePeriodByPodPriority'];
  for (const field of r.keys()) {
    const near = known.includes(field) ? undefined : nearMiss(field, known);
    if (near) r.warnAt(r.keyRange(field), `KubeletConfiguration has no field ${field}; did you mean ${near}? The kubelet ignores it (its log says strict decoding failed), so ${near} keeps its value.`);
  }
  const settings: ConfigSetting[] = [];
  for (const [name, type] of Object.entries(KUBELET_FIELDS)) {
    if (!r.has(name)) continue;
    // SetDefaults_KubeletConfiguration: zero is "not set" for these, and the kubelet applies its default.
    // parseDuration reports nothing: a bad value is reported once, by the read below.
    if (ZERO_IS_UNSET.has(name) && (r.raw(name) === 0 || (type === 'duration' && typeof r.raw(name) === 'string' && parseDuration(r.raw(name) as string) === 0))) continue;
    const value = type === 'duration' ? r.duration(name) : r.int([name], { min: 1, ...(type === 'int32' ? { max: MAX_INT32 } : {}) });
    if (value !== undefined) settings.push({ name, value: r.raw(name) as string | number, range: r.range(name) });
  }
  checkShutdownGracePeriods(r, settings);
  const byPriority = shutdownGracePeriodsByPriority(r, settings);
  // Beside the priority list the periods can only be zero: the list's sums take their place.
  return byPriority.length === 0 ? settings : [...settings.filter((s) => !byPriority.some((b) => b.name === s.name)), ...byPriority];
}

/** scheduling.SystemCriticalPriority: pods from this priority up are the critical ones of a graceful shutdown. */
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/**
 * shutdownGracePeriodByPodPriority (GracefulNodeShutdownBasedOnPodPriority, beta 1.24) as the
 * two periods the kubelet's own migrateConfig turns them into: the whole is every group's
 * seconds, the critical part those of the groups from system-critical priority up. Exact for
 * the usual two groups; with more, the groups below system-critical stop within one window.
 */
function shutdownGracePeriodsByPriority(r: FieldReader, settings: readonly ConfigSetting[]): ConfigSetting[] {
  const name = 'shutdownGracePeriodByPodPriority';
  if (!r.has(name)) return [];
  // The kubelet refuses both at once only where the periods are not zero (ValidateKubeletConfiguration).
  if (settings.some((s) => (s.name === 'shutdownGracePeriod' || s.name === 'shutdownGracePeriodCriticalPods') && (parseDuration(String(s.value)) ?? 0) > 0)) {
    r.report([name], `${name} cannot be set together with shutdownGracePeriod or shutdownGracePeriodCriticalPods: the kubelet does not start with this configuration.`);
    return [];
  }
  let totalSeconds = 0;
  let criticalSeconds = 0;
  for (const group of r.objectList(name)) {
    const priority = group.int(['priority'], { min: -MAX_INT32 - 1, max: MAX_INT32 });
    const seconds = group.int(['shutdownGracePeriodSeconds'], { min: 0 });
    if (priority === undefined || seconds === undefined) return [];
    totalSeconds += seconds;
    if (priority >= SYSTEM_CRITICAL_PRIORITY) criticalSeconds += seconds;
  }
  const range = r.range(name);
  const requires = { minor: 24, problem: `${name} needs Kubernetes 1.24 or later (its gate GracefulNodeShutdownBasedOnPodPriority is alpha, off, before): the kubelet refuses it` };
  return [
    { name: 'shutdownGracePeriod', value: `${totalSeconds}s`, range, requires },
    { name: 'shutdownGracePeriodCriticalPods', value: `${criticalSeconds}s`, range, requires },
  ];
}

/**
 * The kubelet's own validation of graceful node shutdown (pkg/kubelet/apis/config/validation):
 * it does not start when the critical pods' share exceeds the whole.
 */
function checkShutdownGracePeriods(r: FieldReader, settings: ConfigSetting[]): void {
  const ms = (name: string) => {
    const setting = settings.find((s) => s.name === name);
    return setting ? parseDuration(String(setting.value)) ?? 0 : 0;
  };
  const total = ms('shutdownGracePeriod');
  const critical = ms('shutdownGracePeriodCriticalPods');
  if (critical > total) {
    r.report(['shutdownGracePeriodCriticalPods'], `shutdownGracePeriodCriticalPods ${r.raw('shutdownGracePeriodCriticalPods')} must not exceed shutdownGracePeriod ${r.has('shutdownGracePeriod') ? r.raw('shutdownGracePeriod') : '(0s, not set)'}: the kubelet does not start with this configuration. It is the part of shutdownGracePeriod kept for critical pods.`);
  }
}

/** The component a Pod's container runs, judged by its command, image or name. */
export function containerComponent(container: FieldReader): ComponentName | undefined {
  // Raw values: readContainerFlags reports an item that is not a string, once.
  const command = container.raw('command');
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const words = [
    ...(Array.isArray(command) ? command.map(text) : []),
    text(container.raw('name')),
    text(container.raw('image')),
  ].join(' ');
  if (/(^|[\s/])kube-controller-manager(\s|:|$)/.test(words)) return 'kube-controller-manager';
  if (/(^|[\s/])kube-apiserver(\s|:|$)/.test(words)) return 'kube-apiserver';
  return undefined;
}

/**
 * Flags of a component's container (`--name=value` or `--name value`, in command or args,
 * also inside a `sh -c` string). Values of known flags are checked.
 */
export function readContainerFlags(container: FieldReader, component: ComponentName): ConfigSetting[] {
  const tokens: { text: string; range: Range }[] = [];
  for (const field of ['command', 'args']) {
    container.list(field).forEach((item) => {
      const text = item.string();
      if (text === undefined) return;
      for (const word of text.includes(' --') ? text.split(/\s+/) : [text]) tokens.push({ text: word, range: item.range() });
    });
  }
  const flags: ConfigSetting[] = [];
  const known = Object.keys(COMPONENT_FLAGS[component]);
  tokens.forEach((token, i) => {
    const match = /^--?([A-Za-z0-9-]+)(?:=(.*))?$/.exec(token.text);
    if (!match) return;
    // pflag reads one dash as shorthand letters: -node-monitor-grace-period is -n -o -d ..., and the component exits.
    if (!token.text.startsWith('--') && match[1].length > 1) {
      if (known.includes(match[1])) container.reportAt(token.range, `${component} reads -${match[1]} as one-letter flags (one dash) and does not start; write --${match[1]}.`);
      return;
    }

    const next = tokens[i + 1];
    const value = match[2] ?? (next && !next.text.startsWith('-') ? next.text : 'true');
    const setting = checkFlag(container, component, { name: match[1], value, range: token.range });
    if (setting) flags.push(setting);
  });
  return withAdmissionPlugins(component, lastWins(container, component, flags));
}

export const DISABLED_ADMISSION = 'disable-admission-plugins';

/**
 * --disable-admission-plugins with DefaultTolerationSeconds: pods get no default toleration of a
 * dead node, so the taint eviction controller deletes them as soon as it sees the NoExecute
 * taint: read as both default toleration seconds at 0 (an explicit value of them does nothing then).
 */
function withAdmissionPlugins(component: ComponentName, settings: ConfigSetting[]): ConfigSetting[] {
  const disabled = component === 'kube-apiserver' ? settings.find((s) => s.name === DISABLED_ADMISSION) : undefined;
  if (!disabled || !String(disabled.value).split(',').map((p) => p.trim()).includes('DefaultTolerationSeconds')) return settings;
  const off = (name: string): ConfigSetting => ({ name, value: '0', range: disabled.range, via: DISABLED_ADMISSION });
  return [...settings.filter((s) => !s.name.endsWith('-toleration-seconds')), off('default-not-ready-toleration-seconds'), off('default-unreachable-toleration-seconds')];
}

/** A flag given twice: the component takes the last value (pflag), so the earlier one is only reported. */
function lastWins(r: FieldReader, component: ComponentName, settings: ConfigSetting[]): ConfigSetting[] {
  const last = new Map(settings.map((s) => [s.name, s]));
  for (const s of settings) {
    const winner = last.get(s.name)!;
    if (winner !== s) r.warnAt(s.range, `${component} flag --${s.name} is given again at line ${winner.range.start.line + 1}; this value (${String(s.value)}) is not used, the last one (${String(winner.value)}) is.`);
  }
  return settings.filter((s) => last.get(s.name) === s);
}

/** kubeadm ClusterConfiguration `extraArgs`: a map (v1beta3) or a list of {name, value} (v1beta4). */
export function readExtraArgs(r: FieldReader, component: ComponentName): ConfigSetting[] {
  const raw = r.raw('extraArgs');
  const settings: ConfigSetting[] = [];
  if (Array.isArray(raw)) {
    for (const item of r.objectList('extraArgs')) {
      const name = item.string('name');
      const value = item.raw('value');
      if (name && value !== undefined) settings.push({ name, value: String(value), range: item.range('value') });
    }
  } else if (raw !== undefined) {
    for (const [name, value] of Object.entries(r.stringMap('extraArgs'))) {
      settings.push({ name, value, range: r.range('extraArgs', name) });
    }
  }
  return withAdmissionPlugins(component, lastWins(r, component, settings.map((s) => checkFlag(r, component, s)).filter((s): s is ConfigSetting => s !== undefined)));
}

function checkFlag(r: FieldReader, component: ComponentName, setting: ConfigSetting): ConfigSetting | undefined {
  const type = COMPONENT_FLAGS[component][setting.name];
  // Only a near miss of a flag read here is told: the component has many more flags than these.
  const near = type === undefined ? nearMiss(setting.name, Object.keys(COMPONENT_FLAGS[component])) : undefined;
  if (near) {
    r.reportAt(setting.range, `${component} has no flag --${setting.name}; did you mean --${near}? It does not start with an unknown flag.`);
    return undefined;
  }
  const text = String(setting.value);
  const problem =
    type === 'duration' && !((parseDuration(text) ?? -1) >= 0) ? 'a duration ≥ 0 such as "40s" or "1m30s"' :
    type === 'int32' && flagIntUpTo(text, String(MAX_INT32)) === undefined ? `a whole number from 0 to ${MAX_INT32} (a 32-bit integer)` :
    type === 'int' && flagIntUpTo(text, MAX_INT64_TEXT) === undefined ? `a whole number from 0 to ${MAX_INT64_TEXT} (a 64-bit integer)` :
    type === 'number' && !(isDecimalNumber(text) && Number(text) >= 0) ? 'a number ≥ 0' :
    type === 'bool' && !/^(true|false)$/.test(text) ? 'true or false' : undefined;
  if (problem) {
    r.reportAt(setting.range, `${component} flag --${setting.name} must be ${problem}; it is "${text}".`);
    return undefined;
  }
  return setting;
}
