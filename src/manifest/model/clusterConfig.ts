import { parseDuration } from '../duration';
import { flagIntUpTo, flagIntWithin, isDecimalNumber, MAX_INT32, MAX_INT64_TEXT, MIN_INT32 } from '../limits';
import type { Range } from '../range';
import { nearMiss } from '../suggest';
import { componentArgs, type Arg } from './containerArgs';
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
  /** Set from an env variable this tool cannot read: what it overrides is not in effect, and it is left out. */
  unknown?: true;
}

export interface ClusterConfig {
  kubelet: ConfigSetting[];
  controllerManager: ConfigSetting[];
  apiServer: ConfigSetting[];
  kubernetesVersion?: ConfigSetting;
  /** The versions in control-plane images' tags (kube-controller-manager:v1.29.7), in file order: the first the simulator knows is used when nothing names one. */
  imageVersions: ConfigSetting[];
}

export type ComponentName = 'kube-controller-manager' | 'kube-apiserver';

/** int32 and int: the Go type of the field or flag (an int flag is 64 bits); signed-int32: a flag that takes negative values too. */
type ValueType = 'duration' | 'int32' | 'signed-int32' | 'int' | 'number' | 'bool' | 'string' | 'list';

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
    // No check of kube-controller-manager refuses a negative value (its Validate returns none): every zone is large, and pod GC of terminated pods is off.
    'large-cluster-size-threshold': 'signed-int32',
    'terminated-pod-gc-threshold': 'signed-int32',
    'disable-force-detach-on-timeout': 'bool',
    'enable-taint-manager': 'bool',
  },
  'kube-apiserver': {
    'default-not-ready-toleration-seconds': 'int',
    'default-unreachable-toleration-seconds': 'int',
    // String slices: given again, pflag appends.
    'enable-admission-plugins': 'list',
    'disable-admission-plugins': 'list',
  },
};

/** Every field name read here, for near misses. */
const KUBELET_FIELD_NAMES = [...Object.keys(KUBELET_FIELDS), 'shutdownGracePeriodByPodPriority'];

const FLAG_NAMES: Record<ComponentName, string[]> = { 'kube-controller-manager': Object.keys(COMPONENT_FLAGS['kube-controller-manager']), 'kube-apiserver': Object.keys(COMPONENT_FLAGS['kube-apiserver']) };

const ZERO_IS_UNSET: ReadonlySet<string> = new Set(['nodeStatusUpdateFrequency', 'nodeStatusReportFrequency', 'nodeLeaseDurationSeconds']);

/** The only version of KubeletConfiguration there is; the kubelet does not start with another. */
const KUBELET_CONFIG_API_VERSION = 'kubelet.config.k8s.io/v1beta1';

export function readKubeletConfiguration(r: FieldReader, apiVersion: string): ConfigSetting[] {
  if (apiVersion !== KUBELET_CONFIG_API_VERSION) {
    r.report(['apiVersion'], `KubeletConfiguration is served as ${KUBELET_CONFIG_API_VERSION} only: the kubelet does not start with apiVersion ${apiVersion} (no kind KubeletConfiguration is registered for that version).`);
    return [];
  }
  // A misspelt field: the kubelet decodes leniently, ignores it and logs that strict decoding failed.
  const known = KUBELET_FIELD_NAMES;
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
 * it does not start when a period is under a second but not zero, or when the critical pods'
 * share exceeds the whole.
 */
function checkShutdownGracePeriods(r: FieldReader, settings: ConfigSetting[]): void {
  const ms = (name: string) => {
    const setting = settings.find((s) => s.name === name);
    return setting ? parseDuration(String(setting.value)) ?? 0 : 0;
  };
  const total = ms('shutdownGracePeriod');
  const critical = ms('shutdownGracePeriodCriticalPods');
  for (const [name, value] of [['shutdownGracePeriod', total], ['shutdownGracePeriodCriticalPods', critical]] as const) {
    if (value > 0 && value < 1000) r.report([name], `${name} ${r.raw(name)} must be zero or at least 1s: the kubelet does not start with this configuration.`);
  }
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

const BINARY: Record<ComponentName, RegExp> = {
  'kube-controller-manager': /(^|\/)kube-controller-manager$/,
  'kube-apiserver': /(^|\/)kube-apiserver$/,
};

/**
 * Flags of a component's container (containerArgs.ts gives its arguments), read as pflag reads
 * them: `--name=value`, or `--name value` where the next argument is the value whatever it looks
 * like, except that a boolean flag takes its value only after "="; `--` ends the flags. The
 * components take no other argument: one left over stops them. Values of known flags are checked.
 */
export function readContainerFlags(written: FieldReader, component: ComponentName): ConfigSetting[] {
  // An item that is not a string is the API server's to refuse; what the command line says, the component's.
  const { args, exact, problems } = componentArgs(written, BINARY[component]);
  const container = written.readBy(component);
  for (const problem of problems) container.reportAt(problem.range, problem.message);
  const stray = (arg: Arg, why = '') => {
    if (exact) container.reportAt(arg.range, `${component} takes no arguments and does not start: "${arg.text}" is one${why}.`);
  };
  const flags: ConfigSetting[] = [];
  const known = COMPONENT_FLAGS[component];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.text === '--') {
      if (args[i + 1]) stray(args[i + 1], ' (after --, which ends the flags)');
      break;
    }
    const match = /^--?([A-Za-z0-9_-]+)(?:=([^]*))?$/.exec(arg.text);
    if (!match) {
      // One list item holding the flag and its value: pflag takes all of it for the flag's name.
      const joined = /^--([A-Za-z0-9_-]+)\s/.exec(arg.text);
      if (joined && flagName(joined[1]) in known) {
        container.reportAt(arg.range, `${component} reads "${arg.text}" as one flag name, which it does not have, and does not start: write --${joined[1]}=${arg.text.slice(joined[0].length).trim()}, or the flag and its value as two items.`);
      } else if (!arg.text.startsWith('-')) stray(arg);
      continue;
    }
    const name = flagName(match[1]);
    // pflag reads one dash as shorthand letters: -node-monitor-grace-period is -n -o -d ..., and the component exits.
    // One letter (-v) is no flag read here.
    if (!arg.text.startsWith('--')) {
      if (name in known) container.reportAt(arg.range, `${component} reads -${match[1]} as one-letter flags (one dash) and does not start; write --${name}.`);
      continue;
    }
    let value = match[2];
    let range = arg.range;
    let unresolved = arg.unresolved;
    if (value === undefined && known[name] === 'bool') {
      value = 'true';
      // A boolean flag does not take the next argument, which is left over.
      const next = args[i + 1];
      if (next && !next.text.startsWith('-')) {
        stray(next, ` (a boolean flag takes its value only as --${match[1]}=${next.text})`);
        i++;
      }
    } else if (value === undefined && known[name] === undefined) {
      // A flag not read here: most take a value, which is the next argument.
      const next = args[i + 1];
      if (next && !next.text.startsWith('-')) i++;
      value = next && !next.text.startsWith('-') ? next.text : 'true';
    } else if (value === undefined) {
      const next = args[++i];
      if (!next) {
        container.reportAt(arg.range, `${component} does not start: --${match[1]} needs a value (flag needs an argument).`);
        continue;
      }
      value = next.text;
      range = next.range === arg.range ? arg.range : { start: arg.range.start, end: next.range.end };
      unresolved = [...unresolved, ...next.unresolved];
    }
    if (known[name] !== undefined && unresolved.length > 0) {
      container.warnAt(range, `--${name} takes its value from ${unresolved.join(', ')}, which this tool cannot read (a ConfigMap, Secret or field, the image, the script or a command's output): its default is assumed.`);
      // Still the flag's last value: an earlier one is not in effect.
      flags.push({ name, value, range, unknown: true });
      continue;
    }
    const setting = checkFlag(container, component, { name, value, range });
    if (setting) flags.push(setting);
  }
  return withAdmissionPlugins(container, component, lastWins(container, component, flags).filter((s) => !s.unknown));
}

/** pflag's WordSepNormalizeFunc, which the components install: --node_monitor_period is --node-monitor-period. */
function flagName(written: string): string {
  return written.replace(/_/g, '-');
}

export const DISABLED_ADMISSION = 'disable-admission-plugins';

/**
 * --disable-admission-plugins with DefaultTolerationSeconds: pods get no default toleration of a
 * dead node, so the taint eviction controller deletes them as soon as it sees the NoExecute
 * taint: read as both default toleration seconds at 0 (an explicit value of them does nothing then).
 */
function withAdmissionPlugins(r: FieldReader, component: ComponentName, settings: ConfigSetting[], enabledByDefault: readonly string[] = []): ConfigSetting[] {
  const plugins = (name: string) => {
    const setting = component === 'kube-apiserver' ? settings.find((s) => s.name === name) : undefined;
    return { setting, names: setting ? String(setting.value).split(',').map((p) => p.trim()).filter((p) => p) : [] };
  };
  const disabled = plugins(DISABLED_ADMISSION);
  const written = plugins('enable-admission-plugins');
  const enabled = written.setting ? written : { setting: undefined, names: enabledByDefault };
  // options.Validate: a plugin in both lists is refused ("overlapped").
  const both = disabled.names.filter((p) => enabled.names.includes(p));
  if (both.length > 0) {
    const where = enabled.setting ? '--enable-admission-plugins' : 'the --enable-admission-plugins kubeadm writes';
    r.reportAt(disabled.setting!.range, `kube-apiserver does not start: ${both.join(', ')} ${both.length === 1 ? 'is' : 'are'} in both ${where} and --${DISABLED_ADMISSION}.`);
    return settings;
  }
  if (!disabled.setting || !disabled.names.includes('DefaultTolerationSeconds')) return settings;
  const range = disabled.setting.range;
  for (const written of settings.filter((s) => s.name.endsWith('-toleration-seconds'))) {
    r.warnAt(written.range, `--${written.name}=${String(written.value)} has no effect: --${DISABLED_ADMISSION} turns off DefaultTolerationSeconds, the admission plugin that gives pods this toleration, so pods without their own get none.`);
  }
  const off = (name: string): ConfigSetting => ({ name, value: '0', range, via: DISABLED_ADMISSION });
  return [...settings.filter((s) => !s.name.endsWith('-toleration-seconds')), off('default-not-ready-toleration-seconds'), off('default-unreachable-toleration-seconds')];
}

/** A flag given twice: the component takes the last value (pflag), so the earlier one is only reported; a list's values add up. */
function lastWins(r: FieldReader, component: ComponentName, written: ConfigSetting[]): ConfigSetting[] {
  const lists = new Map<string, ConfigSetting>();
  const settings = written.flatMap((s) => {
    if (COMPONENT_FLAGS[component][s.name] !== 'list') return [s];
    const earlier = lists.get(s.name);
    if (!earlier) {
      const first = { ...s };
      lists.set(s.name, first);
      return [first];
    }
    // A part this tool cannot read adds nothing it knows of; the others still count.
    if (!s.unknown) {
      earlier.value = earlier.unknown ? s.value : `${String(earlier.value)},${String(s.value)}`;
      delete earlier.unknown;
    }
    return [];
  });
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
      // kubeadm decodes value into a string: a number or a boolean is refused as in the map form; none is --name= (empty).
      const value = item.has('value') ? item.string('value') : '';
      if (name && value !== undefined) settings.push({ name, value, range: item.has('value') ? item.range('value') : item.range() });
    }
  } else if (raw !== undefined) {
    for (const [name, value] of Object.entries(r.stringMap('extraArgs'))) {
      settings.push({ name, value, range: r.range('extraArgs', name) });
    }
  }
  // A value kubeadm cannot decode is kubeadm's to refuse (above); what the flags say, the component's.
  const flags = r.readBy(component);
  // kubeadm writes --enable-admission-plugins=NodeRestriction unless extraArgs sets it.
  return withAdmissionPlugins(flags, component, lastWins(flags, component, settings.map((s) => checkFlag(flags, component, s)).filter((s): s is ConfigSetting => s !== undefined)), ['NodeRestriction']);
}

/** strconv.ParseBool, which pflag's boolean flags use. */
const BOOLEAN_TEXT = new Map(['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False'].map((text, i) => [text, i < 6]));

function checkFlag(r: FieldReader, component: ComponentName, written: ConfigSetting): ConfigSetting | undefined {
  const setting = { ...written, name: flagName(written.name) };
  const type = COMPONENT_FLAGS[component][setting.name];
  // Only a near miss of a flag read here is told: the component has many more flags than these.
  const near = type === undefined ? nearMiss(setting.name, FLAG_NAMES[component]) : undefined;
  if (near) {
    r.reportAt(setting.range, `${component} has no flag --${setting.name}; did you mean --${near}? It does not start with an unknown flag.`);
    return undefined;
  }
  const text = String(setting.value);
  const problem =
    type === 'duration' && !((parseDuration(text) ?? -1) >= 0) ? 'a duration ≥ 0 such as "40s" or "1m30s"' :
    type === 'int32' && flagIntUpTo(text, String(MAX_INT32)) === undefined ? `a whole number from 0 to ${MAX_INT32} (a 32-bit integer)` :
    type === 'signed-int32' && flagIntWithin(text, String(MIN_INT32), String(MAX_INT32)) === undefined ? `a whole number from ${MIN_INT32} to ${MAX_INT32} (a 32-bit integer)` :
    type === 'int' && flagIntUpTo(text, MAX_INT64_TEXT) === undefined ? `a whole number from 0 to ${MAX_INT64_TEXT} (a 64-bit integer)` :
    type === 'number' && !(isDecimalNumber(text) && Number(text) >= 0) ? 'a number ≥ 0' :
    type === 'bool' && !BOOLEAN_TEXT.has(text) ? 'true or false' : undefined;
  if (problem) {
    r.reportAt(setting.range, `${component} flag --${setting.name} must be ${problem}; it is "${text}".`);
    return undefined;
  }
  return type === 'bool' ? { ...setting, value: String(BOOLEAN_TEXT.get(text)) } : setting;
}
