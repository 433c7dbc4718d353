/** The options that set what a run's analysis and simulations assume: --k8s-version, --profile, --set and --disable. */
import { PRESETS } from '../cluster/presets';
import { describeSuggestions } from '../manifest/suggest';
import { ALWAYS_REPORTED, SYNTAX_ERROR } from '../manifest/problem';
import { ALL_RULE_INFO } from '../analysis/rules';
import type { WorkspaceSettings } from '../workspace/workspace';
import { UsageError, single, type OptionSpec, type ParsedArgs } from './args';

export const SETTINGS_OPTIONS: Record<string, OptionSpec> = {
  profile: { value: true }, 'k8s-version': { value: true }, set: { value: true, repeatable: true },
};

export const DISABLE_OPTION: Record<string, OptionSpec> = { disable: { value: true, repeatable: true } };

export const SETTINGS_USAGE = `  --profile NAME        timing preset, set explicitly as in the seed table:
                        ${Object.keys(PRESETS).join(', ')} ("default" is the classic 10s/5s/40s
                        settings, not the version's defaults); without --profile (or with none),
                        the version's own defaults
  --k8s-version V       Kubernetes version for the defaults (default: a kubeadm
                        ClusterConfiguration's, else a control-plane image tag's, else the
                        newest known)
  --set KNOB=VALUE      override a timing knob (kubelet.*, kcm.*, apiserver.*, sim.*); repeatable`;

/** The workspace settings a command line gives; the workspace checks the values (Workspace.settingsProblems). */
export function settingsFromArgs(args: ParsedArgs): WorkspaceSettings {
  const version = single(args, 'k8s-version');
  return {
    version: version === undefined ? undefined : { value: version, source: '--k8s-version' },
    // none: the version's own defaults, as the editor's setting of that name.
    profile: single(args, 'profile') === 'none' ? undefined : single(args, 'profile'),
    overrides: overrides(args),
    disabledRules: disabledRules(args),
  };
}

/** --set KNOB=VALUE, each knob once: like any other option given twice, a second value is a usage error, not a silent winner. */
function overrides(args: ParsedArgs): WorkspaceSettings['overrides'] {
  const seen = new Set<string>();
  return (args.options.get('set') ?? []).map((assignment) => {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set needs KNOB=VALUE, such as kcm.node-monitor-grace-period=20s; got "${assignment}"`);
    const name = assignment.slice(0, eq);
    if (seen.has(name)) throw new UsageError(`--set ${name} is given twice; give each knob once`);
    seen.add(name);
    return { name, value: assignment.slice(eq + 1), source: '--set' };
  });
}

/** --disable KFS002 --disable KFS010,KFS041: rule ids, checked against the catalogue. */
function disabledRules(args: ParsedArgs): string[] {
  const given = (args.options.get('disable') ?? []).flatMap((list) => list.split(',')).map((id) => id.trim().toUpperCase());
  // A trailing comma is harmless; no id at all is a mistake.
  if (given.length > 0 && given.every((id) => id === '')) throw new UsageError('--disable needs rule ids, such as --disable KFS041,KFS042');
  const ids = given.filter(Boolean);
  const known = ALL_RULE_INFO.map((r) => r.id);
  for (const id of ids) {
    if (!known.includes(id)) throw new UsageError(`--disable ${id}: no such rule; ${describeSuggestions(id, known.filter((k) => !ALWAYS_REPORTED.includes(k)), 'rules')}`);
    if (ALWAYS_REPORTED.includes(id)) throw new UsageError(`--disable ${id}: ${id} reports a file that could not be read (${id === SYNTAX_ERROR ? 'a YAML syntax error' : 'a document past the reader\'s limits'}); it cannot be disabled. Fix the file or leave it out`);
  }
  return ids;
}
