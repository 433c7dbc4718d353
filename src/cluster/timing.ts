import { parseDuration } from '../manifest/duration';
import { KNOBS, KNOB_BY_NAME, type KnobDefinition } from './knobs';
import { parseKubernetesVersion, type KubernetesVersion } from './kubernetesVersion';
import { PRESETS } from './presets';

export interface KnobValue {
  /** null: drawn at random in each run. */
  value: number | boolean | null;
  /** "default 1.31", "preset fast", "file:line", "--set", or the inheritance rule. */
  source: string;
}

/** Resolved timing: every knob with its value (durations in ms) and where it came from. */
export interface TimingProfile {
  version: KubernetesVersion;
  profile?: string;
  knobs: Record<string, KnobValue>;
  /** Settings that were accepted but have no effect, in plain words. */
  notes: string[];
}

export interface TimingSetting {
  name: string;
  /** As written: "40s", "0.1", 300, true. */
  value: string | number | boolean;
  source: string;
}

export interface TimingRequest {
  version: KubernetesVersion;
  profile?: string;
  /** Applied in order after the preset: cluster files first, then --set. */
  settings: TimingSetting[];
}

export class TimingError extends Error {}

/** Resolves version defaults, then the preset, then the settings; throws TimingError on a bad value. */
export function resolveTiming(request: TimingRequest): TimingProfile {
  const { version } = request;
  const knobs: Record<string, KnobValue> = {};
  for (const knob of KNOBS) knobs[knob.name] = { value: knob.defaultValue(version.minor), source: `default ${version.label}` };

  const applied: TimingSetting[] = [];
  if (request.profile !== undefined) {
    const preset = PRESETS[request.profile];
    if (!preset) throw new TimingError(`Unknown profile "${request.profile}"; profiles: ${Object.keys(PRESETS).join(', ')}.`);
    for (const [name, value] of Object.entries(preset)) applied.push({ name, value, source: `preset ${request.profile}` });
  }
  applied.push(...request.settings);

  const notes: string[] = [];
  for (const setting of applied) {
    const knob = KNOB_BY_NAME.get(setting.name);
    if (!knob) throw new TimingError(`Unknown setting "${setting.name}" (${setting.source}); ${suggest(setting.name)}`);
    knobs[knob.name] = { value: parseKnobValue(knob, setting), source: setting.source };
    const noEffect = knob.noEffect?.(version.minor);
    if (noEffect && !notes.includes(noEffect)) notes.push(noEffect);
  }

  // SetDefaults_KubeletConfiguration: an explicit update frequency also becomes the report frequency.
  const update = knobs['kubelet.nodeStatusUpdateFrequency'];
  const report = knobs['kubelet.nodeStatusReportFrequency'];
  if (!update.source.startsWith('default') && report.source.startsWith('default')) {
    knobs['kubelet.nodeStatusReportFrequency'] = {
      value: update.value,
      source: `= kubelet.nodeStatusUpdateFrequency (set explicitly, ${update.source})`,
    };
  }
  return { version, profile: request.profile, knobs, notes };
}

export function parseKnobValue(knob: KnobDefinition, setting: TimingSetting): number | boolean {
  const { value } = setting;
  const fail = (expected: string): never => {
    throw new TimingError(`${knob.name} must be ${expected}; got ${JSON.stringify(value)} (${setting.source}).`);
  };
  let parsed: number | boolean;
  switch (knob.type) {
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      return fail('true or false');
    case 'duration':
      parsed = typeof value === 'string' ? parseDuration(value) ?? fail('a duration such as 40s or 1m30s') : fail('a duration such as 40s or 1m30s');
      break;
    case 'int':
      parsed = typeof value === 'number' ? value : Number(value);
      if (!Number.isInteger(parsed) || String(value).trim() === '') fail('a whole number');
      break;
    case 'number':
      parsed = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(parsed) || String(value).trim() === '') fail('a number');
      break;
  }
  if (knob.min !== undefined && (parsed as number) < knob.min) fail(`≥ ${knob.min}${knob.type === 'duration' ? ' ms' : ''}`);
  if (knob.max !== undefined && (parsed as number) > knob.max) fail(`≤ ${knob.max}`);
  return parsed;
}

function suggest(name: string): string {
  const prefix = name.split('.')[0];
  const candidates = KNOBS.filter((k) => k.name.startsWith(`${prefix}.`)).map((k) => k.name);
  return candidates.length > 0 ? `known ${prefix} settings: ${candidates.join(', ')}.` : 'settings start with kubelet., kcm., apiserver. or sim.';
}

export { parseKubernetesVersion };
