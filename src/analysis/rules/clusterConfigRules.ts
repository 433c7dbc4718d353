import { formatDuration, parseDuration } from '../../manifest/duration';
import type { ConfigSetting } from '../../manifest/model/clusterConfig';
import type { Finding } from '../finding';
import type { Rule, RuleContext } from '../rule';

const TAINT_EVICTION_DOCS = 'https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions';
const NODE_HEARTBEAT_DOCS = 'https://kubernetes.io/docs/concepts/architecture/nodes/#node-heartbeats';

/** The seeds' load table is for 1,000 nodes. */
const LOAD_TABLE_NODES = 1000;

/** The kubelet's heartbeat settings as the cluster files give them, with the kubelet's defaulting rules. */
interface KubeletHeartbeat {
  leaseDurationSeconds: number;
  updateFrequencyMs: number;
  reportFrequencyMs: number;
  /** Where each value came from, for messages. */
  explicitUpdate: boolean;
  explicitReport: boolean;
}

function kubeletHeartbeat(settings: ConfigSetting[]): KubeletHeartbeat {
  const get = (name: string) => settings.find((s) => s.name === name)?.value;
  const update = get('nodeStatusUpdateFrequency');
  const report = get('nodeStatusReportFrequency');
  const lease = get('nodeLeaseDurationSeconds');
  const updateFrequencyMs = typeof update === 'string' ? parseDuration(update) ?? 10_000 : 10_000;
  const reportFrequencyMs = typeof report === 'string' ? parseDuration(report) ?? 300_000
    : update !== undefined ? updateFrequencyMs : 300_000;
  return {
    leaseDurationSeconds: typeof lease === 'number' ? lease : 40,
    updateFrequencyMs,
    reportFrequencyMs,
    explicitUpdate: update !== undefined,
    explicitReport: report !== undefined,
  };
}

export const podEvictionTimeoutIgnored: Rule = {
  id: 'KFS060',
  title: '--pod-eviction-timeout has no effect',
  defaultSeverity: 'warning',
  docs: TAINT_EVICTION_DOCS,
  check({ model }: RuleContext): Finding[] {
    return model.clusterConfig.controllerManager.filter((s) => s.name === 'pod-eviction-timeout').map((setting) => ({
      ruleId: this.id,
      severity: this.defaultSeverity,
      range: setting.range,
      message: `--pod-eviction-timeout=${setting.value} has no effect: pods on a failed node are deleted tolerationSeconds (300s by default) after the node's NoExecute taint, not after this timeout. The flag is ignored since taint-based eviction and was removed in Kubernetes 1.27.`,
      explanation: [
        'Since taint-based eviction (beta 1.13, GA 1.18) the node lifecycle controller taints a failed node',
        '`node.kubernetes.io/unreachable:NoExecute` (or `not-ready`) one monitor pass after it becomes NotReady, and the',
        'taint eviction controller deletes each pod `tolerationSeconds` after it sees the taint. Pods without an explicit',
        'toleration get 300 s from the `DefaultTolerationSeconds` admission plugin (kube-apiserver',
        '`--default-unreachable-toleration-seconds` / `--default-not-ready-toleration-seconds`).',
        '',
        'To evict sooner, set `tolerationSeconds` on the pods, or change the API server defaults.',
      ].join('\n'),
    }));
  },
};

export const gracePeriodTooShort: Rule = {
  id: 'KFS061',
  title: 'node-monitor-grace-period too short for the kubelet heartbeats',
  defaultSeverity: 'warning',
  docs: NODE_HEARTBEAT_DOCS,
  check({ model, otherClusterConfig }: RuleContext): Finding[] {
    const kubeletSettings = [...model.clusterConfig.kubelet, ...(otherClusterConfig?.kubelet ?? [])];
    const { leaseDurationSeconds } = kubeletHeartbeat(kubeletSettings);
    // The kubelet renews its lease every quarter of the lease duration, so "fewer than 4 renewals"
    // and "shorter than the lease" are the same condition.
    const renewMs = leaseDurationSeconds * 250;
    const findings: Finding[] = [];
    for (const setting of model.clusterConfig.controllerManager.filter((s) => s.name === 'node-monitor-grace-period')) {
      const graceMs = parseDuration(String(setting.value));
      if (graceMs === undefined || graceMs >= leaseDurationSeconds * 1000) continue;
      const renewals = Math.floor(graceMs / renewMs);
      findings.push({
        ruleId: this.id,
        severity: this.defaultSeverity,
        range: setting.range,
        message: `node-monitor-grace-period ${formatDuration(graceMs)} invites false NotReady: kubelets renew their ${leaseDurationSeconds}s node lease every ${formatDuration(renewMs)}, so ${renewals === 0 ? 'not even one renewal fits' : `only ${renewals} renewal${renewals === 1 ? '' : 's'} fit`} in it, and a brief API server or network hiccup marks healthy nodes Unknown and taints them. Keep it at least the lease duration (${leaseDurationSeconds}s); to evict sooner, shorten tolerationSeconds instead.`,
        explanation: [
          'The node lifecycle controller marks a node `Ready=Unknown` when it has seen no heartbeat (lease renewal or status change) for the grace period.',
          `Lease settings here: ${kubeletSettings.length > 0 ? 'from the KubeletConfiguration of this input' : 'kubelet defaults (no KubeletConfiguration in this input)'}.`,
          'Kubernetes 1.32 raised the default to 50 s because it must exceed the HTTP/2 ping timeout (30 s) plus the read-idle timeout (15 s).',
          'Shortening `tolerationSeconds` on the pods speeds up eviction without adding load or flapping.',
        ].join('\n'),
      });
    }
    return findings;
  },
};

export const heartbeatLoad: Rule = {
  id: 'KFS062',
  title: 'Heartbeat write load of the kubelet settings',
  defaultSeverity: 'info',
  docs: NODE_HEARTBEAT_DOCS,
  check({ model }: RuleContext): Finding[] {
    const settings = model.clusterConfig.kubelet;
    const trigger = settings.find((s) => s.name === 'nodeStatusUpdateFrequency' || s.name === 'nodeStatusReportFrequency')
      ?? settings.find((s) => s.name === 'nodeLeaseDurationSeconds' && typeof s.value === 'number' && s.value < 40);
    if (!trigger) return [];
    const kubelet = kubeletHeartbeat(settings);
    const statusPerMinute = Math.round((LOAD_TABLE_NODES * 60_000) / kubelet.reportFrequencyMs);
    const leasePerMinute = Math.round((LOAD_TABLE_NODES * 60_000) / (kubelet.leaseDurationSeconds * 250));
    if (statusPerMinute <= 200 && leasePerMinute <= 6000) return [];
    const inherited = kubelet.explicitUpdate && !kubelet.explicitReport
      ? ` (nodeStatusReportFrequency is not set, so it follows nodeStatusUpdateFrequency: ${formatDuration(kubelet.reportFrequencyMs)})`
      : '';
    return [{
      ruleId: this.id,
      severity: this.defaultSeverity,
      range: trigger.range,
      message: `Heartbeat load: on ${LOAD_TABLE_NODES.toLocaleString('en-US')} nodes these settings write ${statusPerMinute.toLocaleString('en-US')} node statuses per minute to etcd${inherited}, plus ${leasePerMinute.toLocaleString('en-US')} lease renewals; the defaults write 200 statuses and 6,000 leases.`,
      explanation: [
        'Each node status write rewrites the whole Node object (typically 10–20 KB); a lease renewal is a small object.',
        'With defaults the kubelet posts an unchanged status every 5 minutes and renews its lease every 10 s.',
        'Setting `nodeStatusUpdateFrequency` explicitly also sets `nodeStatusReportFrequency` unless that is set too.',
      ].join('\n'),
    }];
  },
};
