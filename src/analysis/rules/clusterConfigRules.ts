import { formatCount } from '../../manifest/formatCount';
import { formatDuration, parseDuration } from '../../manifest/duration';
import { legacyPodEviction } from '../../cluster/controllerManagerConfiguration';
import type { ConfigSetting } from '../../manifest/model/clusterConfig';
import type { Finding } from '../finding';
import type { Rule, RuleContext } from '../rule';

const TAINT_EVICTION_DOCS = 'https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions';
const NODE_HEARTBEAT_DOCS = 'https://kubernetes.io/docs/concepts/architecture/nodes/#node-heartbeats';

/** The seeds' load table is for 1,000 nodes. */
const LOAD_TABLE_NODES = 1000;
const DEFAULT_STATUS_WRITES_PER_MINUTE = 200;
const DEFAULT_LEASE_WRITES_PER_MINUTE = 6000;

export const podEvictionTimeoutIgnored: Rule = {
  id: 'KFS060',
  title: '--pod-eviction-timeout has no effect (it and --enable-taint-manager are removed from 1.27)',
  defaultSeverity: 'warning',
  docs: TAINT_EVICTION_DOCS,
  check({ document, timing }: RuleContext): Finding[] {
    const { value: seconds, source } = timing.apiServer.defaultUnreachableTolerationSeconds;
    const { version } = timing;
    // Up to 1.26 with --enable-taint-manager=false the legacy eviction path does use it (SEMANTICS.md 3.7).
    if (legacyPodEviction(version.minor, timing.controllerManager.enableTaintManager.value as boolean)) return [];
    // Removed with --enable-taint-manager (kubernetes#115840): the controller-manager exits on an unknown flag.
    const removed = version.minor >= 27;
    const instead = `pods on a failed node are deleted tolerationSeconds after the node's NoExecute taint (${seconds}s for pods that set none: --default-unreachable-toleration-seconds, ${source}), not after this timeout`;
    // --enable-taint-manager went with it: from 1.27 the controller-manager does not start with either.
    const taintManager: Finding[] = removed ? document.model.clusterConfig.controllerManager.filter((s) => s.name === 'enable-taint-manager').map((setting) => ({
      ruleId: this.id,
      severity: 'error',
      range: setting.range,
      message: `--enable-taint-manager was removed in Kubernetes 1.27: kube-controller-manager ${version.label} (${timing.versionSource}) does not start with it (unknown flag). Remove it: taint-based eviction always runs, and ${instead}.`,
      explanation: 'The legacy eviction path it selected (`--enable-taint-manager=false`: pods deleted `--pod-eviction-timeout` after the node stopped reporting, shown as NodeLost) was removed in 1.27 with both flags (kubernetes#115840).',
    })) : [];
    return [...taintManager, ...document.model.clusterConfig.controllerManager.filter((s) => s.name === 'pod-eviction-timeout').map((setting) => ({
      ruleId: this.id,
      severity: removed ? 'error' : this.defaultSeverity,
      range: setting.range,
      // A flag that changes nothing is faded in the editor (DiagnosticTag.Unnecessary); a removed one must go.
      unnecessary: removed ? undefined : true,
      message: removed
        ? `--pod-eviction-timeout was removed in Kubernetes 1.27: kube-controller-manager ${version.label} (${timing.versionSource}) does not start with it (unknown flag). Remove it: ${instead}.`
        : `--pod-eviction-timeout=${setting.value} has no effect: ${instead}. The flag is ignored since taint-based eviction and was removed in Kubernetes 1.27.`,
      explanation: [
        'Since taint-based eviction (beta 1.13, GA 1.18) the node lifecycle controller taints a failed node',
        '`node.kubernetes.io/unreachable:NoExecute` (or `not-ready`) one monitor pass after it becomes NotReady, and the',
        'taint eviction controller deletes each pod `tolerationSeconds` after it sees the taint. Pods without an explicit',
        'toleration get 300 s from the `DefaultTolerationSeconds` admission plugin (kube-apiserver',
        '`--default-unreachable-toleration-seconds` / `--default-not-ready-toleration-seconds`).',
        '',
        'To evict sooner, set `tolerationSeconds` on the pods, or change the API server defaults.',
      ].join('\n'),
    }))];
  },
};

export const gracePeriodTooShort: Rule = {
  id: 'KFS061',
  title: 'node-monitor-grace-period too short for the kubelet heartbeats',
  defaultSeverity: 'warning',
  docs: NODE_HEARTBEAT_DOCS,
  check({ document, timing }: RuleContext): Finding[] {
    const lease = timing.kubelet.nodeLeaseDurationSeconds;
    const leaseMs = lease.value * 1000;
    const renewMs = timing.derived.leaseRenewIntervalMs;
    const findings: Finding[] = [];
    const { controllerManager, kubelet } = document.model.clusterConfig;
    const graceSettings = controllerManager.filter((s) => s.name === 'node-monitor-grace-period');
    const grace = timing.controllerManager.nodeMonitorGracePeriod;
    // A lease written here against a grace period no file writes (the version's default, a preset, a setting): said at the
    // lease. A grace period from another file is said there.
    const graceFromFile = /:\d+$/.test(grace.source);
    const lastLease = kubelet.filter((s) => s.name === 'nodeLeaseDurationSeconds').at(-1);
    // Only the lease in effect (another file or a setting may set it again).
    const leaseSetting = graceSettings.length === 0 && !graceFromFile && lastLease?.value === lease.value ? lastLease : undefined;
    const candidates = leaseSetting ? [{ setting: leaseSetting, graceMs: grace.value }] : graceSettings.map((setting) => ({ setting, graceMs: parseDuration(String(setting.value)) }));
    for (const { setting, graceMs } of candidates) {
      // The kubelet renews every quarter of the lease, so "fewer than 4 renewals" and "shorter than the lease" are one condition.
      if (graceMs === undefined || graceMs >= leaseMs) continue;
      const renewals = Math.floor(graceMs / renewMs);
      const fit = renewals === 0 ? 'not even one renewal fits' : `only ${renewals} renewal${renewals === 1 ? '' : 's'} fit`;
      findings.push({
        ruleId: this.id,
        severity: this.defaultSeverity,
        range: setting.range,
        message: leaseSetting
          ? `nodeLeaseDurationSeconds ${lease.value} invites false NotReady: the kubelet renews its lease every ${formatDuration(renewMs)}, so ${fit} in node-monitor-grace-period ${formatDuration(graceMs)} (${grace.source}), and a brief API server or network hiccup marks healthy nodes Unknown and taints them. Keep the lease at most the grace period, or raise the grace period with it.`
          : `node-monitor-grace-period ${formatDuration(graceMs)} invites false NotReady: kubelets renew their ${lease.value}s node lease every ${formatDuration(renewMs)}, so ${fit} in it, and a brief API server or network hiccup marks healthy nodes Unknown and taints them. Keep it at least the lease duration (${lease.value}s); to evict sooner, shorten tolerationSeconds instead.`,
        explanation: [
          'The node lifecycle controller marks a node `Ready=Unknown` when it has seen no heartbeat (lease renewal or status change) for the grace period.',
          `nodeLeaseDurationSeconds ${lease.value}: ${lease.source}.`,
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
  check({ document, timing }: RuleContext): Finding[] {
    const { derived, kubelet } = timing;
    const statusPerMinute = Math.round(LOAD_TABLE_NODES * 60 * derived.statusWritesPerNodePerSecond);
    const leasePerMinute = Math.round(LOAD_TABLE_NODES * 60 * derived.leaseWritesPerNodePerSecond);
    if (statusPerMinute <= DEFAULT_STATUS_WRITES_PER_MINUTE && leasePerMinute <= DEFAULT_LEASE_WRITES_PER_MINUTE) return [];
    // Said at the setting that makes the load, and only where it is the one in effect (a file read later may set it again).
    const inEffect = (s: ConfigSetting) => {
      const knob = kubelet[s.name as 'nodeStatusUpdateFrequency' | 'nodeStatusReportFrequency' | 'nodeLeaseDurationSeconds'];
      return knob.value === (typeof s.value === 'number' ? s.value : parseDuration(String(s.value)));
    };
    const last = (name: string) => document.model.clusterConfig.kubelet.filter((s) => s.name === name).at(-1);
    // An unchanged status is posted every nodeStatusReportFrequency: when it is written, it makes the status load.
    const status = [last('nodeStatusReportFrequency'), last('nodeStatusUpdateFrequency')];
    const candidates = [...(statusPerMinute > DEFAULT_STATUS_WRITES_PER_MINUTE ? status : []), ...(leasePerMinute > DEFAULT_LEASE_WRITES_PER_MINUTE ? [last('nodeLeaseDurationSeconds')] : [])];
    const trigger = candidates.find((s): s is ConfigSetting => s !== undefined && inEffect(s));
    if (!trigger) return [];
    const inherited = derived.statusReportFollowsUpdate
      ? ` (nodeStatusReportFrequency is not set, so it follows nodeStatusUpdateFrequency: ${formatDuration(kubelet.nodeStatusReportFrequency.value)})`
      : '';
    return [{
      ruleId: this.id,
      severity: this.defaultSeverity,
      range: trigger.range,
      message: `Heartbeat load: on ${formatCount(LOAD_TABLE_NODES)} nodes these settings write ${formatCount(statusPerMinute)} node statuses per minute to etcd${inherited}, plus ${formatCount(leasePerMinute)} lease renewals; the defaults write ${formatCount(DEFAULT_STATUS_WRITES_PER_MINUTE)} statuses and ${formatCount(DEFAULT_LEASE_WRITES_PER_MINUTE)} leases.`,
      explanation: [
        'Each node status write rewrites the whole Node object (typically 10–20 KB); a lease renewal is a small object.',
        'With defaults the kubelet posts an unchanged status every 5 minutes and renews its lease every 10 s.',
        'Setting `nodeStatusUpdateFrequency` explicitly also sets `nodeStatusReportFrequency` unless that is set too.',
      ].join('\n'),
    }];
  },
};
