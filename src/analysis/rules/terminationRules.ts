/** Section C of RULES.md: how pods stop. */
import type { Sourced, Workload } from '../../manifest/model/types';
import { execPrefixable, preStopSeconds, shellScriptAsPid1 } from '../../manifest/model/containerStop';
import { objectRef } from '../../manifest/objects';
import { NodeKind } from '../../manifest/sourceMap';
import { formatDuration } from '../../report/format';
import { fix } from '../editing';
import { containerName, podSpecPath, rangeOf } from '../facts';
import type { Finding, TextEdit } from '../finding';
import type { Rule } from '../rule';

const TERMINATION_DOCS = 'https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-termination';

function finding(rule: Rule, workload: Sourced<Workload>, path: (string | number)[], message: string, extra: Partial<Finding> = {}): Finding {
  return { ruleId: rule.id, severity: rule.defaultSeverity, range: rangeOf(workload, path), message, object: objectRef(workload.source), ...extra };
}

/** How a pod of each kind is stopped: a bare Pod has no rollout, and a drain leaves a DaemonSet's pods alone. */
const STOPS: Readonly<Record<string, string>> = { Pod: 'deletion, eviction, drain', DaemonSet: 'rollout, deletion, node shutdown' };

export const shellIgnoresSigterm: Rule = {
  id: 'KFS030',
  title: 'Shell as PID 1 ignores SIGTERM',
  defaultSeverity: 'warning',
  docs: TERMINATION_DOCS,
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => workload.template.spec.containers.flatMap((container, i) => {
      const argv = [...container.command, ...container.args];
      const commandField = container.command.length > 0 ? 'command' : 'args';
      const script = shellScriptAsPid1(container);
      if (script === undefined || container.preStop) return [];
      const path = [...podSpecPath(workload), 'containers', container.at ?? i];
      const grace = workload.template.spec.terminationGracePeriodSeconds;
      // The script is argv[2]: in command, or in args when command is shorter.
      const [field, index] = container.command.length > 2 ? ['command', 2] : ['args', 2 - container.command.length];
      const edit = execPrefixable(script) ? prefixScalar(ctx.document.parsed.text, workload, [...path, field, index], 'exec ') : undefined;
      return [finding(this, workload, [...path, commandField],
        `${containerName(container)} runs its program under ${argv[0]} ${argv[1]}: the shell is PID 1, does not forward SIGTERM and ignores it, so every stop (${STOPS[workload.kind] ?? 'rollout, eviction, drain'}) waits the whole terminationGracePeriodSeconds (${grace}s) and ends in SIGKILL. Start the program with exec, or add a preStop hook.`,
        { fixes: edit ? fix(`Start the program with exec (SIGTERM reaches the program: it can stop gracefully within terminationGracePeriodSeconds ${grace}s instead of being killed at its end)`, [edit], { preferred: true }) : undefined })];
    }));
  },
};

/** "exec " before the text of a plain or quoted one-line scalar, after its tag or anchor. */
function prefixScalar(text: string, workload: Sourced<Workload>, path: (string | number)[], prefix: string): TextEdit | undefined {
  const map = workload.source.sourceMap;
  const node = map.writtenNode(path);
  if (!node || node.kind !== NodeKind.Scalar || node.style > 3) return undefined;
  let at = node.start;
  while (text[map.baseOffset + at] === '!' || text[map.baseOffset + at] === '&') {
    while (at < node.end && !/\s/.test(text[map.baseOffset + at])) at++;
    while (at < node.end && /\s/.test(text[map.baseOffset + at])) at++;
  }
  if (node.style !== 1) at++;
  return { range: map.toRange(at, at), newText: prefix };
}

export const longGracePeriod: Rule = {
  id: 'KFS031',
  title: 'terminationGracePeriodSeconds over 5 minutes',
  defaultSeverity: 'info',
  docs: TERMINATION_DOCS,
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      const grace = workload.template.spec.terminationGracePeriodSeconds;
      if (grace <= 300) return [];
      return [finding(this, workload, [...podSpecPath(workload), 'terminationGracePeriodSeconds'],
        `Every deletion of these pods (rollout, eviction, drain) may wait ${formatDuration(grace * 1000)} before SIGKILL; on a failed node the pod stays Terminating regardless, so this does not delay its replacement.`)];
    });
  },
};

export const preStopTooLong: Rule = {
  id: 'KFS032',
  title: 'preStop longer than the grace period',
  defaultSeverity: 'info',
  docs: 'https://kubernetes.io/docs/concepts/containers/container-lifecycle-hooks/',
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => workload.template.spec.containers.flatMap((container, i) => {
      const preStop = container.preStop;
      if (!preStop) return [];
      const slept = preStopSeconds(preStop);
      const grace = workload.template.spec.terminationGracePeriodSeconds;
      if (slept <= grace) return [];
      return [finding(this, workload, [...podSpecPath(workload), 'containers', container.at ?? i, 'lifecycle', 'preStop'],
        `The preStop hook of ${containerName(container)} sleeps ${slept}s but terminationGracePeriodSeconds is ${grace}s: the kubelet waits ${grace}s for the hook, then sends SIGTERM and kills the container at most 2s later (its minimum grace), so the hook is cut short by ${cutShort(slept - grace)}.`)];
    }));
  },
};

/** How much of the hook is lost: all of the excess when the app exits on SIGTERM, 2 s less when it waits for SIGKILL. */
function cutShort(excessSeconds: number): string {
  return excessSeconds > 2 ? `${excessSeconds - 2}–${excessSeconds}s` : `up to ${excessSeconds}s`;
}
