import * as vscode from 'vscode';
import { defaultCluster } from '../cluster/clusterSpec';
import { parseDuration } from '../manifest/duration';
import {
  FAILURE_OPTIONS, INTERVENTION_OPTIONS, intervention, presetOptions, RETURN_OPTIONS, targetOptions, versionOptions, type Option, type SimulationRequest,
} from '../workspace/guidedChoices';

const TITLE = 'Simulate Node Failure';
const STEPS = 6;

async function pickOne<T>(step: number, title: string, options: readonly Option<T>[]): Promise<Option<T> | undefined> {
  return vscode.window.showQuickPick(options.map((o) => ({ ...o, label: o.label, detail: o.detail })), { title: `${TITLE} (${step}/${STEPS}): ${title}`, matchOnDetail: true, ignoreFocusOut: true });
}

/**
 * A duration typed by the user, checked as they type ("90s", "7m"), under the step it belongs to.
 * A node back 0s after its failure never failed: a return time must be longer.
 */
async function askDuration(step: number, prompt: string, value: string, positive = false): Promise<number | undefined> {
  const text = await vscode.window.showInputBox({
    title: `${TITLE} (${step}/${STEPS})`, prompt, value, ignoreFocusOut: true,
    validateInput: (input) => {
      const ms = parseDuration(input.trim());
      if (ms === undefined || ms < 0) return 'A duration such as 90s, 5m or 1m30s';
      return positive && ms === 0 ? 'A time after the failure, such as 30s or 5m (0s would be no failure at all)' : undefined;
    },
  });
  return text === undefined ? undefined : Math.round(parseDuration(text.trim())!);
}

/**
 * The six questions of "Simulate Node Failure…", each in plain words with what follows: the
 * failure, what fails, whether and when it comes back, what people do meanwhile, and which
 * Kubernetes version and timing preset (the settings' first). Undefined when the user cancels.
 */
export async function askSimulation(
  workloads: readonly { kind: string; name: string }[], nodes: readonly { name: string; labels: Record<string, string> }[], settings: { kubernetesVersion: string; profile: string },
): Promise<SimulationRequest | undefined> {
  const failure = await pickOne(1, 'What happens to the node?', FAILURE_OPTIONS);
  if (!failure) return undefined;
  const target = await pickOne(2, failure.value === 'zone-outage' ? 'Which zone fails?' : 'Which node fails?', targetOptions(workloads, nodes.length > 0 ? nodes : defaultCluster().nodes, failure.value));
  if (!target) return undefined;
  const back = await pickOne(3, 'Does it come back?', RETURN_OPTIONS);
  if (!back) return undefined;
  const recoverAfterMs = back.value === undefined ? await askDuration(3, 'The node comes back this long after the failure', '3m', true) : back.value ?? undefined;
  if (back.value === undefined && recoverAfterMs === undefined) return undefined;
  const chosen = await vscode.window.showQuickPick(INTERVENTION_OPTIONS.map((o) => ({ ...o })), {
    title: `${TITLE} (4/${STEPS}): What do people do meanwhile? (none, one or more; Enter to go on)`, canPickMany: true, ignoreFocusOut: true,
  });
  if (!chosen) return undefined;
  const firstWorkload = workloads[0] ? `${workloads[0].kind}/${workloads[0].name}` : undefined;
  const interventions = [];
  for (const option of chosen) {
    const atMs = await askDuration(4, option.prompt, option.defaultAt);
    if (atMs === undefined) return undefined;
    interventions.push(intervention(option.value, atMs, target.value, firstWorkload));
  }
  const version = await pickOne(5, 'Which Kubernetes version\'s defaults?', versionOptions(settings.kubernetesVersion));
  if (!version) return undefined;
  const preset = await pickOne(6, 'Which timing preset?', presetOptions(settings.profile));
  if (!preset) return undefined;
  return { failure: failure.value, targets: target.value, recoverAfterMs, interventions, kubernetesVersion: version.value || undefined, profile: preset.value };
}
