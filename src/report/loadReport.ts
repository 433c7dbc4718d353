/** The heartbeat load of `kube-failure-sim load`, as JSON (a stable contract) and as text. */
import type { HeartbeatLoad } from '../cluster/heartbeatLoad';
import { knobsOf, type TimingConfiguration } from '../cluster/timing';
import type { TimingJson } from './contract';
import { formatDuration } from './format';
import { timingJson } from './jsonReport';

export interface LoadReport extends HeartbeatLoad {
  timing: Record<string, TimingJson>;
}

/** The load and the settings it follows from (the kubelet's, and the object sizes), with their sources. */
export function loadReport(load: HeartbeatLoad, timing: TimingConfiguration): LoadReport {
  const all = timingJson(timing);
  const used = knobsOf(timing).map(({ ref }) => ref.qualifiedName).filter((name) => name.startsWith('kubelet.node') || name === 'sim.leaseObjectBytes' || name === 'sim.nodeObjectBytes');
  return { ...load, timing: Object.fromEntries(used.map((name) => [name, all[name]])) };
}

/** Two decimals, or three significant digits below 0.01 (one node's status updates are 0.00333/s, not 0/s). */
const round = (n: number) => (n > 0 && n < 0.01 ? Number(n.toPrecision(3)) : Math.round(n * 100) / 100).toLocaleString('en-US', { maximumSignificantDigits: 21 });

export function renderLoad(report: LoadReport, timing: TimingConfiguration): string {
  const lines = [
    `Heartbeat writes of ${report.nodes.toLocaleString('en-US')} node${report.nodes === 1 ? '' : 's'} (Kubernetes ${timing.version.label}):`,
    `  lease renewals   ${round(report.leaseWritesPerSecond)}/s`,
    `  status updates   ${round(report.statusWritesPerSecond)}/s${timing.derived.statusReportFollowsUpdate ? ' (nodeStatusReportFrequency follows the explicitly set nodeStatusUpdateFrequency)' : ''}`,
    `  in all           ${round(report.writesPerMinute)} writes/min, ${round(report.bytesPerSecond / 1000)} KB/s to etcd`,
    'Settings:',
    // Durations as simulate's header writes them (5m, not 300000 ms).
    ...Object.entries(report.timing).map(([name, knob]) => `  ${name} = ${knob.unit === 'ms' && typeof knob.value === 'number' ? formatDuration(knob.value) : `${knob.value}${knob.unit === 's' ? ' s' : ''}`} (${knob.source})`),
  ];
  return `${lines.join('\n')}\n`;
}
