/** Section B of RULES.md: traffic and probes. */
import { valueAt } from '../../manifest/path';
import type { Container, ContainerPort, Probe, Service, Sourced, Workload } from '../../manifest/model/types';
import { objectRef } from '../../manifest/objects';
import { editorFor, fix } from '../editing';
import { containerName, podSpecPath, rangeOf, servicesInFront } from '../facts';
import type { Finding, TextEdit } from '../finding';
import type { YamlValue } from '../yamlEdit';
import { approx } from '../outageText';
import type { Rule, RuleContext } from '../rule';

const PROBE_DOCS = 'https://kubernetes.io/docs/concepts/configuration/liveness-readiness-startup-probes/';

function eachContainer(ctx: RuleContext, visit: (workload: Sourced<Workload>, container: Container, path: (string | number)[]) => Finding[]): Finding[] {
  return ctx.document.model.workloads.flatMap((workload) =>
    workload.template.spec.containers.flatMap((container, i) => visit(workload, container, [...podSpecPath(workload), 'containers', container.at ?? i])));
}

function finding(rule: Rule, workload: Sourced<Workload>, path: (string | number)[], message: string, extra: Partial<Finding> = {}): Finding {
  return { ruleId: rule.id, severity: rule.defaultSeverity, range: rangeOf(workload, path), message, object: objectRef(workload.source), ...extra };
}

/** The probe's action as written, to compare two probes. */
function action(probe: Probe | undefined, raw: unknown, ports: readonly ContainerPort[]): string | undefined {
  if (!probe || probe.handler === 'none' || typeof raw !== 'object' || raw === null) return undefined;
  // The same check written two ways is the same check: keys in any order, a port by its name or its number.
  const canonical = (value: unknown, key?: string): unknown => {
    if (key === 'port' && typeof value === 'string') return ports.find((p) => p.name === value)?.containerPort ?? value;
    if (Array.isArray(value)) return value.map((item) => canonical(item));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k], k)]));
  };
  // The handler is part of the check: an HTTP GET and a TCP connect on one port are not the same.
  return JSON.stringify([probe.handler, canonical((raw as Record<string, unknown>)[probe.handler])]);
}

/** On a dead node no probe runs: the black-hole window is the same with a readinessProbe. */
const PROBE_OR_NOT = ', probe or not (no probe runs on a dead node)';

export const noReadinessProbe: Rule = {
  id: 'KFS020',
  title: 'Serving container without a readinessProbe',
  defaultSeverity: 'warning',
  docs: 'https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/#define-readiness-probes',
  check(ctx) {
    return eachContainer(ctx, (workload, container, path) => {
      if (container.readinessProbe || workload.kind === 'Job' || workload.kind === 'CronJob') return [];
      const inFront = servicesInFront(workload, ctx.workspace.services);
      const { containers } = workload.template.spec;
      // Without ports written, a lone container still serves a Service's numeric targetPort: containerPort is informational.
      const served = container.ports.length > 0 ? container.ports[0] : containers.length === 1 ? undeclaredTarget(inFront) : undefined;
      if (!served) return [];
      // The Services whose traffic reaches this container: a targetPort (a number, or a port's name) it declares, or one
      // no container declares; not one that targets another container's port (a sidecar beside the app). When another
      // container has a readinessProbe, the pod is Ready only with it: only a port of this one declared as the target counts.
      const declaredBy = (target: number | string) => containers.find((c) => c.ports.some((p) => (typeof target === 'number' ? p.containerPort === target : p.name === target)));
      const reaching = containers.some((c) => c !== container && c.readinessProbe) ? [container] : [container, undefined];
      const services = inFront.filter((s) => s.ports.some((p) => reaching.includes(declaredBy(p.targetPort ?? p.port))));
      if (inFront.length > 0 && services.length === 0) return [];
      const outcome = ctx.simulations.outcome(workload, ctx.workspace, ctx.timing);
      const notReady = outcome?.summary.podsNotReadyMs;
      const detection = notReady === null || notReady === undefined ? ''
        : services.length > 0 ? ` If its node dies, Service ${services[0].name} keeps sending it traffic for about ${approx(notReady)}, until the node is marked NotReady${PROBE_OR_NOT}.`
        : ` If its node dies, a Service in front of it (none among the inputs) would keep sending it traffic for about ${approx(notReady)}, until the node is marked NotReady${PROBE_OR_NOT}.`;
      const port = served.containerPort;
      const editor = editorFor(ctx.document, workload.source);
      return [finding(this, workload, [...path, 'name'],
        `Container ${containerName(container)} serves port ${port} without a readinessProbe: it gets traffic as soon as it starts, and while it hangs.${detection}`,
        {
          related: services.flatMap((s) => {
            const location = ctx.locate(s.source);
            return location ? [{ location, message: `Service ${s.name} selects these pods` }] : [];
          }),
          fixes: readinessFix(container.ports.length > 0 ? container.ports : [served], (probe) => editor.setEntry(path, 'readinessProbe', probe)),
        })];
    });
  },
};

type Port = Container['ports'][number];

/** The port of the first Service in front whose numeric targetPort (or port) no container declares. */
function undeclaredTarget(services: readonly Service[]): Port | undefined {
  for (const service of services) {
    for (const p of service.ports) {
      const target = p.targetPort ?? p.port;
      if (typeof target === 'number' && (p.protocol ?? 'TCP') === 'TCP') return { containerPort: target, name: p.name, protocol: 'TCP' };
    }
  }
  return undefined;
}

/** Ports that answer HTTP by their name or their usual number; others get a TCP check, which any server passes. */
const HTTP_PORT_NAME = /^(http|web)/i;
/**
 * Names of ports that do not answer a plain GET / with 200–399: TLS (an httpGet probe speaks HTTP
 * unless told otherwise, and a TLS server answers 400), webhooks (404 on /), Traefik's websecure.
 */
const NOT_PLAIN_HTTP_NAME = /https|tls|ssl|secure|hook/i;
const HTTP_PORTS = new Set([80, 3000, 5000, 8000, 8080, 8888]);

/**
 * A readiness probe on the first TCP port: GET / where the port is known to speak HTTP, else a
 * TCP connection (an HTTP probe on redis or a database never passes, and the pod never gets traffic).
 * UDP-only containers get no fix: no probe checks UDP.
 */
function readinessFix(ports: readonly Port[], write: (probe: YamlValue) => TextEdit | undefined) {
  const port = ports.find((p) => (p.protocol || 'TCP') === 'TCP');
  if (!port) return undefined;
  const n = port.containerPort;
  const name = port.name ?? '';
  const http = !NOT_PLAIN_HTTP_NAME.test(name) && (HTTP_PORT_NAME.test(name) || HTTP_PORTS.has(n));
  const checks = { periodSeconds: 10, failureThreshold: 3 };
  const probe = http ? { httpGet: { path: '/', port: n }, ...checks } : { tcpSocket: { port: n }, ...checks };
  // What the probe written here does (the node-failure simulation has no hung container to show it).
  const what = http ? `httpGet / on port ${n}) (no traffic until GET / on port ${n} answers` : `tcpSocket on port ${n}) (no traffic until port ${n} accepts connections`;
  return fix(`Add a readinessProbe (${what}; out of the Service after ${checks.failureThreshold} failed checks ${checks.periodSeconds}s apart)`, [write(probe)]);
}

/** A liveness probe kills a container that has not answered after initialDelaySeconds + failureThreshold × periodSeconds. */
function killAfterSeconds(probe: Probe): number {
  return probe.initialDelaySeconds + probe.failureThreshold * probe.periodSeconds;
}

export const livenessBeforeStart: Rule = {
  id: 'KFS021',
  title: 'livenessProbe can kill a container that is still starting',
  defaultSeverity: 'warning',
  docs: 'https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/#define-startup-probes',
  check(ctx) {
    return eachContainer(ctx, (workload, container, path) => {
      const liveness = container.livenessProbe;
      if (!liveness || container.startupProbe) return [];
      const kill = killAfterSeconds(liveness);
      // 10 s is quick for any app to start; a readinessProbe's initialDelaySeconds, when longer, is the author's own estimate.
      const readinessDelay = container.readinessProbe?.initialDelaySeconds ?? 0;
      const expectedStart = Math.max(readinessDelay, 10);
      if (kill >= expectedStart) return [];
      return [finding(this, workload, [...path, 'livenessProbe'],
        `The kubelet restarts ${containerName(container)} if it has not answered its livenessProbe ${kill}s after starting (initialDelaySeconds ${liveness.initialDelaySeconds} + failureThreshold ${liveness.failureThreshold} × periodSeconds ${liveness.periodSeconds})${kill < readinessDelay ? `, before its readinessProbe even starts (${readinessDelay}s)` : ''}: a slow start becomes a restart loop (CrashLoopBackOff, 10s doubling to 5m). Add a startupProbe or a longer initialDelaySeconds.`)];
    });
  },
};

export const livenessSameAsReadiness: Rule = {
  id: 'KFS022',
  title: 'livenessProbe identical to readinessProbe',
  defaultSeverity: 'info',
  docs: PROBE_DOCS,
  check(ctx) {
    return eachContainer(ctx, (workload, container, path) => {
      const raw = (name: string) => workload.source.sourceMap.node([...path, name]) && valueAt(workload.source.value, [...path, name]);
      const liveness = action(container.livenessProbe, raw('livenessProbe'), container.ports);
      // An overloaded process still completes TCP handshakes: a tcpSocket check does not restart it (KFS023 says what it misses).
      if (!liveness || container.livenessProbe!.handler === 'tcpSocket' || liveness !== action(container.readinessProbe, raw('readinessProbe'), container.ports)) return [];
      const { failureThreshold, periodSeconds } = container.livenessProbe!;
      return [finding(this, workload, [...path, 'livenessProbe'],
        `The livenessProbe checks the same thing as the readinessProbe: when ${containerName(container)} is merely overloaded or waiting on a dependency, it is restarted after ${failureThreshold} × ${periodSeconds}s instead of only being taken out of the Service.`)];
    });
  },
};

export const tcpProbe: Rule = {
  id: 'KFS023',
  title: 'tcpSocket probe passes for a hung process',
  defaultSeverity: 'info',
  docs: PROBE_DOCS,
  check(ctx) {
    return eachContainer(ctx, (workload, container, path) => (['readinessProbe', 'livenessProbe'] as const).flatMap((kind) => {
      if (container[kind]?.handler !== 'tcpSocket') return [];
      return [finding(this, workload, [...path, kind, 'tcpSocket'],
        `This ${kind} only opens a TCP connection: the kernel completes the handshake for a process that is hung, so ${kind === 'readinessProbe' ? 'traffic keeps flowing to it' : 'it is never restarted'}. An httpGet or exec check of the application answers.`)];
    }));
  },
};

/** `-h HOST`, `--host=HOST` (a host name, an address or a variable, not a path such as df -h /data), or a URL's host. */
const REMOTE_HOST = /(?:^|\s)(?:-h|--host)(?:=|\s+)([A-Za-z0-9][-A-Za-z0-9.]*|\$\S+)(?=$|[\s:])|https?:\/\/(\[[0-9A-Fa-f:.]+\]|[^/:\s]+)/;
/** The pod itself: loopback, any address, or its own name or IP from the environment or the shell. */
const OWN_HOST = /^(localhost|127(\.\d+){3}|0\.0\.0\.0|::1?|\[::1?\]|\$\(?\{?(POD_IP|HOSTNAME|hostname)\b.*)$/;

export const probeOnOtherHost: Rule = {
  id: 'KFS024',
  title: 'Probe that depends on another host',
  defaultSeverity: 'info',
  docs: PROBE_DOCS,
  check(ctx) {
    return eachContainer(ctx, (workload, container, path) => (['readinessProbe', 'livenessProbe'] as const).flatMap((kind) => {
      const probe = container[kind];
      if (!probe) return [];
      const host = probe.host ?? REMOTE_HOST.exec(probe.command.join(' '))?.slice(1).find(Boolean);
      if (!host || OWN_HOST.test(host)) return [];
      const where = probe.handler === 'exec' ? [...path, kind, 'exec', 'command'] : [...path, kind, probe.handler, 'host'];
      return [finding(this, workload, where,
        `This ${kind} reaches ${host}: when that host is down, ${kind === 'livenessProbe' ? `every replica of ${workload.name} is restarted` : `every replica of ${workload.name} leaves the Service`}, and one outage cascades.`)];
    }));
  },
};

export const readinessGates: Rule = {
  id: 'KFS025',
  title: 'readinessGates: Ready needs another controller',
  defaultSeverity: 'info',
  docs: 'https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-readiness-gate',
  check(ctx) {
    return ctx.document.model.workloads.flatMap((workload) => {
      const gates = workload.template.spec.readinessGates;
      if (gates.length === 0) return [];
      return [finding(this, workload, [...podSpecPath(workload), 'readinessGates'],
        `Pods of ${workload.name} are not Ready until a controller sets ${gates.join(', ')} to True: a replacement after a node failure waits for that controller too.`)];
    });
  },
};

