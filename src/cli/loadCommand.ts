import { formatCount } from '../manifest/formatCount';
import { MAX_LOAD_NODES } from '../manifest/limits';
import { heartbeatLoad } from '../cluster/heartbeatLoad';
import { findKnob } from '../cluster/timing';
import { loadReport, renderLoad } from '../report/loadReport';
import { InputError } from '../workspace/inputError';
import { UsageError, parseArgs, single } from './args';
import { FileError, loadWorkspace } from './files';
import { describeInputError } from './inputErrors';
import type { Output } from './output';
import { RejectedInput, reportRejected, warnSkippedDocuments } from './refusedInput';
import { settingsFromArgs } from './settingsOptions';

export const LOAD_USAGE = `Usage: kube-failure-sim load --nodes N [PATH...] [options]

Control-plane write load of the kubelets' heartbeats (lease renewals and node status updates).
  --nodes N             number of nodes
  --profile NAME        timing preset: default, fast, medium, slow
  --k8s-version V       Kubernetes version for the defaults
  --set KNOB=VALUE      override a knob (kubelet.*, sim.leaseObjectBytes, sim.nodeObjectBytes,
                        ...); repeatable
  --format text|json    (default text)
Cluster configuration files among PATH (a KubeletConfiguration) set the timing, as for simulate.`;

const OPTIONS = {
  nodes: { value: true }, profile: { value: true }, 'k8s-version': { value: true }, set: { value: true, repeatable: true },
  format: { value: true }, help: { value: false },
};


const CONFIG_KINDS: ReadonlySet<string> = new Set(['KubeletConfiguration', 'ClusterConfiguration']);

export function runLoad(argv: string[], out: Output): number {
  const args = parseArgs(argv, OPTIONS);
  if (args.options.has('help')) {
    out.stdout(`${LOAD_USAGE}\n`);
    return 0;
  }
  const format = single(args, 'format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}"`);
  const nodesText = single(args, 'nodes');
  const nodes = Number(nodesText);
  // Digits only: Number() would also take 1e3 and 0x10.
  if (nodesText === undefined || !/^[0-9]+$/.test(nodesText) || nodes < 1 || nodes > MAX_LOAD_NODES) throw new UsageError(`load needs --nodes N, a whole number from 1 to ${formatCount(MAX_LOAD_NODES)}`);
  try {
    const settings = settingsFromArgs(args);
    const { workspace, files, errors } = loadWorkspace(args.positionals, settings);
    if (errors.length > 0) throw new FileError(errors.join('\nkube-failure-sim: '));
    warnSkippedDocuments(workspace, files, (line) => out.stderr(`kube-failure-sim: ${line}\n`));
    // Only what sets the heartbeats counts: a KubeletConfiguration, a flag; a workload the API server rejects does not.
    const rejections = workspace.rejections(files.map((f) => f.displayPath)).filter(({ finding }) => !finding.object || CONFIG_KINDS.has(finding.object.kind));
    if (rejections.length > 0) throw new RejectedInput(rejections);
    const timing = workspace.timing();
    const report = loadReport(heartbeatLoad(nodes, timing), timing);
    // A knob the heartbeats do not follow (a controller-manager's, a latency) is accepted, as simulate takes it, but said to change nothing here.
    for (const { name } of settings.overrides) {
      const knob = findKnob(name)?.qualifiedName;
      if (knob && !(knob in report.timing)) out.stderr(`kube-failure-sim: note: --set ${name} does not change the heartbeat load (it follows ${Object.keys(report.timing).join(', ')})\n`);
    }
    out.stdout(format === 'json' ? `${JSON.stringify(report)}\n` : renderLoad(report, timing));
    return 0;
  } catch (error) {
    if (error instanceof RejectedInput) return reportRejected(error, out, 'no load computed');
    if (error instanceof InputError || error instanceof FileError) {
      out.stderr(`kube-failure-sim: ${error instanceof InputError ? describeInputError(error) : error.message}\n`);
      return 2;
    }
    throw error;
  }
}
