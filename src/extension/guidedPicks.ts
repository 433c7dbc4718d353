import * as vscode from 'vscode';
import { defaultCluster, ZONE_LABEL } from '../cluster/clusterSpec';
import { workloadLabeler } from '../report/workloadLabel';
import type { ObjectRef } from '../sim/trace';
import { parseDuration } from '../manifest/duration';
import type { Intervention } from '../sim/scenario';
import {
  FAILURE_OPTIONS, INTERVENTION_OPTIONS, interventions as guidedInterventions, presetOptions, returnOptions, targetOptions, versionOptions, type FolderVersion, type Option, type SimulationRequest,
} from '../workspace/guidedChoices';

const TITLE = 'Simulate Node Failure';
const STEPS = 6;
/** The user asked for the step before (the Back button of the title bar). */
const BACK = Symbol('back');
type Answer<T> = T | typeof BACK | undefined;

/**
 * Shows a quick input and settles with its answer: what `accept` makes of it, BACK for the Back
 * button (from step 2 on), undefined when it is dismissed (Escape).
 */
function ask<T, I extends vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox>(input: I, step: number, accept: (input: I) => T | undefined): Promise<Answer<T>> {
  input.title = `${TITLE} (${step}/${STEPS})${input.title ? `: ${input.title}` : ''}`;
  input.ignoreFocusOut = true;
  if (step > 1) input.buttons = [vscode.QuickInputButtons.Back];
  return new Promise((resolve) => {
    let settled = false;
    const settle = (answer: Answer<T>) => {
      if (settled) return;
      settled = true;
      resolve(answer);
      input.hide();
    };
    const subscriptions = [
      input.onDidAccept(() => {
        const answer = accept(input);
        if (answer !== undefined) settle(answer);
      }),
      input.onDidTriggerButton((button) => button === vscode.QuickInputButtons.Back && settle(BACK)),
      input.onDidHide(() => {
        settle(undefined);
        for (const s of subscriptions) s.dispose();
        input.dispose();
      }),
    ];
    input.show();
  });
}

function pickOne<T>(step: number, title: string, options: readonly Option<T>[]): Promise<Answer<Option<T>>> {
  const quickPick = vscode.window.createQuickPick<Option<T> & vscode.QuickPickItem>();
  quickPick.title = title;
  quickPick.matchOnDetail = true;
  quickPick.items = options.map((o) => ({ ...o }));
  return ask(quickPick, step, (q) => q.selectedItems[0] ?? q.activeItems[0]);
}

/** `selected`: the options ticked when the list shows again (Back from a later prompt). */
function pickMany<T extends vscode.QuickPickItem>(step: number, title: string, options: readonly T[], selected: readonly T[] = []): Promise<Answer<readonly T[]>> {
  const quickPick = vscode.window.createQuickPick<T>();
  quickPick.title = title;
  quickPick.canSelectMany = true;
  const items = options.map((o) => ({ ...o }));
  quickPick.items = items;
  quickPick.selectedItems = items.filter((_, i) => selected.includes(options[i]));
  return ask(quickPick, step, (q) => q.selectedItems.map((item) => options[items.indexOf(item)]));
}

/**
 * A duration typed by the user, checked as they type ("90s", "7m"), under the step it belongs to.
 * A node back 0s after its failure never failed: a return time must be longer.
 */
function askDuration(step: number, prompt: string, value: string, positive = false): Promise<Answer<number>> {
  const box = vscode.window.createInputBox();
  box.prompt = prompt;
  box.value = value;
  const problem = (text: string) => {
    const ms = parseDuration(text.trim());
    if (ms === undefined || ms < 0) return 'A duration such as 90s, 5m or 1m30s';
    return positive && ms === 0 ? 'A time after the failure, such as 30s or 5m (0s would be no failure at all)' : undefined;
  };
  box.onDidChangeValue((text) => (box.validationMessage = problem(text)));
  return ask(box, step, (b) => (problem(b.value) ? undefined : Math.round(parseDuration(b.value.trim())!)));
}

/** Keeps an answer through `keep`; passes Back and cancel on. */
function keep<T>(answer: Answer<T>, store: (value: T) => void): Answer<true> {
  if (answer === undefined || answer === BACK) return answer as undefined | typeof BACK;
  store(answer as T);
  return true;
}

/**
 * The six questions of "Simulate Node Failure…", each in plain words with what follows: the
 * failure, what fails, whether and when it comes back, what people do meanwhile, and which
 * Kubernetes version and timing preset (the settings' first). Back (in the title bar) returns to
 * the question before; undefined when the user cancels.
 */
export async function askSimulation(
  workloads: readonly ObjectRef[], nodes: readonly { name: string; labels: Record<string, string> }[], settings: { kubernetesVersion: string; profile: string },
  folderVersion: FolderVersion | undefined, tolerations: { seconds: readonly (number | null)[]; defaultSeconds: number },
): Promise<SimulationRequest | undefined> {
  let failure: SimulationRequest['failure'] = 'power-off';
  let targets: string[] = [];
  let recoverAfterMs: number | undefined;
  let interventions: Intervention[] = [];
  let kubernetesVersion = '';
  let profile = '';
  const firstWorkload = workloads[0] ? workloadLabeler(workloads)(workloads[0]) : undefined;
  const steps: (() => Promise<Answer<true>>)[] = [
    async () => keep(await pickOne(1, 'What happens to the node?', FAILURE_OPTIONS), (o) => (failure = o.value)),
    async () => {
      const options = targetOptions(workloads, nodes.length > 0 ? nodes : defaultCluster().nodes, failure);
      if (options.length === 0) {
        void vscode.window.showWarningMessage(`No node of the cluster has a ${ZONE_LABEL} label, so there is no zone to take down: pick another failure, or give the Node objects their zones.`);
        return BACK;
      }
      return keep(await pickOne(2, failure === 'zone-outage' ? 'Which zone fails?' : 'Which node fails?', options), (o) => (targets = o.value));
    },
    async () => {
      for (;;) {
        // Said against the target workload's toleration of the unreachable taint, where the target is a workload.
        const label = workloadLabeler(workloads);
        const index = targets.length === 1 ? workloads.findIndex((w) => label(w) === targets[0]) : -1;
        const back = await pickOne(3, 'Does it come back?', returnOptions(index >= 0 ? tolerations.seconds[index] : undefined, tolerations.defaultSeconds));
        if (back === undefined || back === BACK) return back;
        // A value of its own: never (null) or a time; none: a time the user types, under the same step.
        if (back.value !== undefined) return keep(back, (o) => (recoverAfterMs = o.value ?? undefined));
        const typed = await askDuration(3, 'The node comes back this long after the failure', '3m', true);
        if (typed !== BACK) return keep(typed, (ms) => (recoverAfterMs = ms));
      }
    },
    async () => {
      let ticked: readonly (typeof INTERVENTION_OPTIONS)[number][] = [];
      for (;;) {
        const chosen = await pickMany(4, 'What do people do meanwhile? (none, one or more; Enter to go on)', INTERVENTION_OPTIONS, ticked);
        if (chosen === undefined || chosen === BACK) return chosen;
        // Back from a time shows this step's choices again, as they were ticked.
        ticked = chosen;
        const picked: Intervention[] = [];
        let timed = 0;
        for (const option of chosen) {
          const atMs = await askDuration(4, option.prompt, option.defaultAt);
          if (atMs === undefined) return undefined;
          // Back from a time shows this step's choices again.
          if (atMs === BACK) break;
          picked.push(...guidedInterventions(option.value, atMs, targets, firstWorkload));
          timed++;
        }
        if (timed === chosen.length) return keep(picked, (list) => (interventions = list));
      }
    },
    async () => keep(await pickOne(5, 'Which Kubernetes version\'s defaults?', versionOptions(settings.kubernetesVersion, folderVersion)), (o) => (kubernetesVersion = o.value)),
    async () => keep(await pickOne(6, 'Which timing preset? (Cluster configuration files in the folder and kubeFailureSim.timing override its values.)', presetOptions(settings.profile)), (o) => (profile = o.value)),
  ];
  for (let step = 0; step < steps.length;) {
    const answer = await steps[step]();
    if (answer === undefined) return undefined;
    step = answer === BACK ? Math.max(0, step - 1) : step + 1;
  }
  return { failure, targets, recoverAfterMs, interventions, kubernetesVersion: kubernetesVersion || undefined, profile };
}
