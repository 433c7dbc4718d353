/**
 * Every rule of RULES.md sections A–E (and KFS053/KFS054/KFS094): a manifest that triggers it and
 * one that does not, the exact text it underlines, and its message with the simulated numbers.
 * Kubernetes 1.36 defaults: grace 50 s, so a pod on a powered-off node is deleted 5m45s–6m after
 * the failure (SEMANTICS.md 13.2) and its replacement is Ready 5 s (pod start) later.
 */
import * as assert from 'node:assert/strict';
import { RULES } from '../../src/analysis/rules';
import { selectedNodes } from '../../src/analysis/workloadSimulation';
import { emptyModel } from '../../src/manifest/model';
import { readManifestText } from '../../src/manifest/readManifest';
import { analyse } from '../support/workspace';
import { defaultChoices } from '../../src/workspace/simulationChoices';
import { Workspace } from '../../src/workspace/workspace';

/** A pod template's spec lines (indented for a Deployment) and extra top-level spec lines. */
function deployment(options: { name?: string; replicas?: number | null; pod?: string; spec?: string; kind?: string } = {}): string {
  const { name = 'web', replicas = 1, pod = '', spec = '', kind = 'Deployment' } = options;
  return `apiVersion: apps/v1
kind: ${kind}
metadata: {name: ${name}, namespace: shop}
spec:
${replicas === null ? '' : `  replicas: ${replicas}\n`}  selector: {matchLabels: {app: ${name}}}
${spec}  template:
    metadata: {labels: {app: ${name}}}
    spec:
${pod || '      containers: [{name: c, image: app}]\n'}`;
}

const statefulSet = (replicas: number, extra = '') => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  serviceName: db
  replicas: ${replicas}
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres}]
${extra}`;

const container = (lines: string) => `      containers:
      - name: app
        image: app
${lines}`;

const DELETED = '(5m4[5-9]|5m5[0-9]|6m0[0-9])s';

interface Case {
  name: string;
  text: string;
  others?: string[];
  rule: string;
  underlined: string;
  message: RegExp;
  severity?: string;
  negative: string;
  negativeOthers?: string[];
}

const CASES: Case[] = [
  { name: 'single-replica StatefulSet stays down until the node returns or someone acts', rule: 'KFS001', text: statefulSet(1), underlined: 'StatefulSet',
    message: new RegExp(`^Down until the node returns or someone acts if its node fails: db-0 is deleted at ${DELETED} but stays Terminating on the unreachable node, and the StatefulSet never creates a second db-0`),
    negative: deployment() },
  { name: 'single replica: down while replaced', rule: 'KFS002', text: deployment(), underlined: '1',
    message: new RegExp(`^Down for about (5m5[0-9]|6m0[0-9])s if its node fails: the pod is deleted 5m after the NoExecute taint, and its replacement is Ready ~5s later\\.`),
    negative: deployment({ replicas: 3, spec: '' }) },
  { name: 'a toleration longer than 20 minutes is simulated to its end, not called "until someone acts"', rule: 'KFS002', text: deployment({ pod: `      tolerations:\n      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 1200}\n${container('')}` }), underlined: '1',
    message: /^Down for about 2[01]m(\d+s)? if its node fails: the pod is deleted 20m after the NoExecute taint, and its replacement is Ready ~\d+s later\./,
    negative: deployment({ replicas: 3, spec: '' }) },
  { name: 'a toleration longer than the 2 hours simulated: down more than that, with the time it runs out', rule: 'KFS002', text: deployment({ pod: `      tolerations:\n      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 86400}\n${container('')}` }), underlined: '1',
    message: /^Down for more than 2h \(until its eviction at about 24h(\d+s)?, then a replacement\) if its node fails: .* it has not been evicted yet: its tolerationSeconds 86,400 counts from the NoExecute taint at \d+\.\d+s, so it is evicted at about 24h\d+\.\d+s, after the end of the run/,
    negative: deployment({ replicas: 3, spec: '' }) },
  { name: 'unset replicas count as 1: the kind is underlined', rule: 'KFS002', text: deployment({ replicas: null }), underlined: 'Deployment',
    message: /^Down for about/, negative: deployment({ replicas: 2 }) },
  { name: 'bare run-once Pod: a Job, not a Deployment', rule: 'KFS003', text: 'apiVersion: v1\nkind: Pod\nmetadata: {name: once, namespace: shop}\nspec: {restartPolicy: Never, containers: [{name: c, image: app, command: [echo, hi]}]}\n', underlined: 'Pod',
    message: new RegExp(`^Lost if its node reboots \\(its kubelet does not start a restartPolicy Never pod again\\) or is down for more than ${DELETED} \\(the pod is deleted then\\); nothing creates it again\\. Run it as a Job, which creates it again until it completes \\(restartPolicy Never is not allowed in a Deployment\\)\\.$`),
    negative: 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: once, namespace: shop}\nspec:\n  template:\n    spec: {restartPolicy: Never, containers: [{name: c, image: app, command: [echo, hi]}]}\n' },
  { name: 'bare Pod tolerating a dead node forever: bound there, not Terminating', rule: 'KFS003', text: 'apiVersion: v1\nkind: Pod\nmetadata: {name: tool, namespace: shop}\nspec: {tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}], containers: [{name: c, image: app}]}\n', underlined: 'Pod',
    message: /^Down until the node returns if its node fails: the pod is not deleted \(it tolerates the taint\), stays bound to that node, and nothing creates it again\./,
    negative: 'apiVersion: v1\nkind: Pod\nmetadata: {name: tool, namespace: shop, ownerReferences: [{kind: Job, name: j, apiVersion: batch/v1, uid: u}]}\nspec: {containers: [{name: c, image: app}]}\n' },
  { name: 'bare Pod tolerating a dead node forever: nothing would replace it', rule: 'KFS007', severity: 'info', text: 'apiVersion: v1\nkind: Pod\nmetadata: {name: tool, namespace: shop}\nspec: {tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}], containers: [{name: c, image: app}]}\n', underlined: 'node.kubernetes.io/unreachable',
    message: /it is never evicted from a dead node and nothing replaces it \(a bare Pod is never recreated: evicted, it would be lost for good\)\.$/,
    negative: 'apiVersion: v1\nkind: Pod\nmetadata: {name: tool, namespace: shop}\nspec: {tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}], containers: [{name: c, image: app}]}\n' },
  { name: 'bare Pod', rule: 'KFS003', text: 'apiVersion: v1\nkind: Pod\nmetadata: {name: tool, namespace: shop}\nspec: {containers: [{name: c, image: app}]}\n', underlined: 'Pod',
    message: new RegExp(`^Down for good if its node is down for more than ${DELETED}: the pod is deleted then, stays Terminating until the node returns, and nothing creates it again`),
    negative: 'apiVersion: v1\nkind: Pod\nmetadata: {name: tool, namespace: shop, ownerReferences: [{kind: Job, name: j, apiVersion: batch/v1, uid: u}]}\nspec: {containers: [{name: c, image: app}]}\n' },
  { name: 'pinned by nodeSelector to one node', rule: 'KFS004', text: deployment({ pod: `      nodeSelector:\n        kubernetes.io/hostname: worker-b1\n${container('')}` }), underlined: 'nodeSelector',
    message: /^Down until worker-b1 returns if it fails: only that node of the cluster .* matches this selector, so its replacement stays Pending: 0\/6 nodes are available: 1 node\(s\) had untolerated taint\(s\), 5 node\(s\) didn't match Pod's node affinity\/selector\./,
    negative: deployment({ pod: `      nodeSelector:\n        topology.kubernetes.io/zone: zone-b\n${container('')}` }) },
  { name: 'pinned by spec.nodeName to one node: replacements are bound there too', rule: 'KFS004', text: deployment({ pod: `      nodeName: db-host-7\n${container('')}` }), underlined: 'db-host-7',
    message: /^Down until db-host-7 returns if it fails: spec\.nodeName binds every pod to db-host-7 without the scheduler, replacements included, so each replacement stays Pending there until the taint manager evicts it and another takes its place \(simulated: [1-9]\d* in the default scenario\)/,
    negative: deployment({ pod: `      nodeSelector:\n        topology.kubernetes.io/zone: zone-b\n${container('')}` }) },
  { name: 'local PersistentVolume', rule: 'KFS005',
    text: deployment({ pod: `      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n${container('')}` }),
    others: ['apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: local-1}\nspec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n  local: {path: /mnt/disk}\n  claimRef: {namespace: shop, name: data}\n  nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [worker-a1]}]}]}}\n'],
    underlined: 'data', message: /^Claim data is bound to the local volume local-1, which exists on one node only/,
    negative: deployment({ pod: `      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n${container('')}` }) },
  { name: 'hostPath holding data', rule: 'KFS005', text: deployment({ pod: `      volumes: [{name: d, hostPath: {path: /srv/data}}]\n${container('')}` }), underlined: 'hostPath',
    message: /^The data in hostPath \/srv\/data stays on the node/, negative: deployment({ pod: `      volumes: [{name: d, hostPath: {path: /var/run/docker.sock}}]\n${container('')}` }) },
  { name: 'short tolerationSeconds with an emptyDir', rule: 'KFS006',
    text: deployment({ pod: `      tolerations:\n      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 10}\n      volumes: [{name: cache, emptyDir: {}}]\n${container('')}` }),
    underlined: '10', message: /^tolerationSeconds 10 is shorter than a network blip: a network blip that cuts its node off for longer than about (4[0-9]|5[0-9]|1m[0-9])s evicts the pod 10s after the NoExecute taint, and the emptyDir cache it leaves behind is lost to it/,
    negative: deployment({ pod: `      tolerations:\n      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}\n      volumes: [{name: cache, emptyDir: {}}]\n${container('')}` }) },
  { name: 'negative tolerationSeconds: evicted at once, not "-5s after"', rule: 'KFS006',
    text: deployment({ pod: `      tolerations:\n      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: -5}\n      volumes: [{name: cache, emptyDir: {}}]\n${container('')}` }),
    underlined: '-5', message: /^tolerationSeconds -5 is shorter than a network blip: .* evicts the pod as soon as the NoExecute taint is added \(0 or less is at once\), and the emptyDir cache/,
    negative: deployment({ pod: `      tolerations:\n      - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}\n      volumes: [{name: cache, emptyDir: {}}]\n${container('')}` }) },
  { name: 'tolerated forever', rule: 'KFS007', severity: 'info',
    text: deployment({ pod: `      tolerations:\n      - key: node.kubernetes.io/unreachable\n        operator: Exists\n        effect: NoExecute\n${container('')}` }),
    underlined: 'node.kubernetes.io/unreachable', message: /^Down until the node returns or someone acts if its node fails: this toleration has no tolerationSeconds, so the pod tolerates the node\.kubernetes\.io\/unreachable NoExecute taint forever/,
    negative: deployment({ pod: `      tolerations:\n      - key: node.kubernetes.io/unreachable\n        operator: Exists\n        effect: NoExecute\n        tolerationSeconds: 60\n${container('')}` }) },
  { name: 'default tolerations explained', rule: 'KFS008', severity: 'info', text: deployment({ replicas: 2 }), underlined: 'Deployment',
    message: new RegExp(`^Its pods get tolerationSeconds 300 for a dead node from the API server's DefaultTolerationSeconds admission \\(--default-unreachable-toleration-seconds=300, Kubernetes 1\\.36 default\\): a pod on a failed node is deleted about ${DELETED} after the failure`),
    negative: deployment({ replicas: 2, pod: `      tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}]\n${container('')}` }) },
  { name: 'DaemonSet pods stay', rule: 'KFS009', severity: 'info', text: deployment({ kind: 'DaemonSet', replicas: null }), underlined: 'DaemonSet',
    message: /^Its pod on a failed node is never evicted or moved \(DaemonSet pods tolerate the node taints forever\): it turns NotReady at (3[0-9]|4[0-9]|5[0-9])s/, negative: deployment() },
  { name: 'several replicas that nothing spreads: packed on one node, all go down with it', rule: 'KFS010', text: deployment({ replicas: 3 }), underlined: '3',
    message: /^If the scheduler packs its 3 replicas on one node \(only the scheduler's default spreading, soft and of maxSkew 3, keeps them apart\), that node's failure takes all of them down for about (5m5[0-9]|6m0[0-9])s; spread them: a topologySpreadConstraint of their own over kubernetes\.io\/hostname \(ScheduleAnyway with maxSkew 1 never leaves a replacement Pending\)\.$/,
    negative: deployment({ replicas: 1 }) },
  { name: 'ReadWriteOnce claim template', rule: 'KFS011',
    text: statefulSet(1, '  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n'),
    underlined: 'accessModes', message: /^ReadWriteOnce volume data stays attached to a powered-off node: a new pod cannot attach it while the old pod object exists, and only 6 minutes after that object is gone/,
    negative: statefulSet(1, '  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteMany], resources: {requests: {storage: 1Gi}}}\n') },
  { name: 'serving container without readinessProbe, with its Service as related information', rule: 'KFS020',
    text: deployment({ pod: container('        ports: [{containerPort: 8080}]\n') }), others: ['apiVersion: v1\nkind: Service\nmetadata: {name: front, namespace: shop}\nspec: {selector: {app: web}, ports: [{port: 80}]}\n'],
    underlined: 'app', message: /^Container app serves port 8080 without a readinessProbe: .* If its node dies, Service front keeps sending it traffic for about (3[0-9]|4[0-9]|5[0-9])s, until the node is marked NotReady, probe or not \(no probe runs on a dead node\)\./,
    negative: deployment({ pod: container('        ports: [{containerPort: 8080}]\n        readinessProbe: {httpGet: {path: /, port: 8080}}\n') }) },
  { name: 'liveness kills before readiness starts', rule: 'KFS021',
    text: deployment({ pod: container('        livenessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 2, failureThreshold: 2}\n        readinessProbe: {httpGet: {path: /ready, port: 80}, initialDelaySeconds: 20}\n') }),
    underlined: 'livenessProbe', message: /^The kubelet restarts app if it has not answered its livenessProbe 4s after starting \(initialDelaySeconds 0 \+ failureThreshold 2 × periodSeconds 2\), before its readinessProbe even starts \(20s\)/,
    negative: deployment({ pod: container('        livenessProbe: {httpGet: {path: /, port: 80}, initialDelaySeconds: 30}\n        readinessProbe: {httpGet: {path: /ready, port: 80}, initialDelaySeconds: 20}\n') }) },
  { name: 'liveness kills within a second, beside a readinessProbe with no delay', rule: 'KFS021',
    text: deployment({ pod: container('        livenessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 1, failureThreshold: 1}\n        readinessProbe: {httpGet: {path: /ready, port: 80}}\n') }),
    underlined: 'livenessProbe', message: /^The kubelet restarts app if it has not answered its livenessProbe 1s after starting \(initialDelaySeconds 0 \+ failureThreshold 1 × periodSeconds 1\): a slow start/,
    negative: deployment({ pod: container('        livenessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5, failureThreshold: 3}\n        readinessProbe: {httpGet: {path: /ready, port: 80}}\n') }) },
  { name: 'liveness same as readiness', rule: 'KFS022', severity: 'info',
    text: deployment({ pod: container('        livenessProbe: {httpGet: {path: /health, port: 80}, initialDelaySeconds: 30}\n        readinessProbe: {httpGet: {path: /health, port: 80}}\n') }),
    underlined: 'livenessProbe', message: /^The livenessProbe checks the same thing as the readinessProbe: .* restarted after 3 × 10s/,
    negative: deployment({ pod: container('        livenessProbe: {httpGet: {path: /live, port: 80}, initialDelaySeconds: 30}\n        readinessProbe: {httpGet: {path: /ready, port: 80}}\n') }) },
  { name: 'tcpSocket probe', rule: 'KFS023', severity: 'info', text: deployment({ pod: container('        readinessProbe: {tcpSocket: {port: 80}}\n') }), underlined: 'tcpSocket',
    message: /^This readinessProbe only opens a TCP connection/, negative: deployment({ pod: container('        readinessProbe: {httpGet: {path: /, port: 80}}\n') }) },
  { name: 'probe that depends on another host', rule: 'KFS024', severity: 'info',
    text: deployment({ pod: container('        livenessProbe: {exec: {command: [mysqladmin, ping, -h, db.shop.svc]}, initialDelaySeconds: 30}\n') }), underlined: 'command',
    message: /^This livenessProbe reaches db\.shop\.svc: when that host is down, every replica of web is restarted/,
    negative: deployment({ pod: container('        livenessProbe: {exec: {command: [mysqladmin, ping, -h, 127.0.0.1]}, initialDelaySeconds: 30}\n') }) },
  { name: 'readiness gates', rule: 'KFS025', severity: 'info', text: deployment({ pod: `      readinessGates: [{conditionType: example.com/lb-ready}]\n${container('')}` }), underlined: 'readinessGates',
    message: /^Pods of web are not Ready until a controller sets example\.com\/lb-ready to True/, negative: deployment() },
  { name: 'shell as PID 1', rule: 'KFS030', text: deployment({ pod: container('        command: [sh, -c, "node server.js >> /var/log/web.log"]\n') }), underlined: 'command',
    message: /^app runs its program under sh -c: the shell is PID 1, does not forward SIGTERM and ignores it, so every stop .* waits the whole terminationGracePeriodSeconds \(30s\)/,
    negative: deployment({ pod: container('        command: [sh, -c, "exec node server.js >> /var/log/web.log"]\n') }) },
  { name: 'grace period over 5 minutes', rule: 'KFS031', severity: 'info', text: deployment({ pod: `      terminationGracePeriodSeconds: 600\n${container('')}` }), underlined: '600',
    message: /^Every deletion of these pods .* may wait 10m before SIGKILL/, negative: deployment({ pod: `      terminationGracePeriodSeconds: 60\n${container('')}` }) },
  { name: 'preStop longer than the grace period', rule: 'KFS032', severity: 'info',
    text: deployment({ pod: container('        lifecycle: {preStop: {exec: {command: [sleep, "45"]}}}\n') }), underlined: 'preStop',
    message: /^The preStop hook of app sleeps 45s but terminationGracePeriodSeconds is 30s: the kubelet waits 30s for the hook, then sends SIGTERM and kills the container at most 2s later \(its minimum grace\), so the hook is cut short by 13–15s\.$/,
    negative: deployment({ pod: container('        lifecycle: {preStop: {exec: {command: [sleep, "5"]}}}\n') }) },
  { name: 'BestEffort', rule: 'KFS040', text: deployment({ pod: container('') }), underlined: 'containers',
    message: /^No container requests or limits cpu or memory: the pods are BestEffort\. .* the kubelet evicts first the pods using more than they request, lower priority first; a BestEffort pod requests nothing, so it goes before every pod within its requests, whatever its priority\./, negative: deployment({ pod: container('        resources: {requests: {cpu: 100m}}\n') }) },
  { name: 'Burstable', rule: 'KFS041', severity: 'info', text: deployment({ pod: container('        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 500m, memory: 64Mi}}\n') }), underlined: 'resources',
    message: /^Container app has a cpu request below its limit: the pods are Burstable\. Under node pressure the kubelet first evicts the pods using more than they request, BestEffort ones among them, lower priority first; a Burstable pod within its requests goes only after them, with the Guaranteed ones\./,
    negative: deployment({ pod: container('        resources: {limits: {cpu: 500m, memory: 64Mi}}\n') }) },
  { name: 'no memory limit', rule: 'KFS042', text: deployment({ pod: container('        resources: {requests: {cpu: 100m}}\n') }), underlined: 'resources',
    message: /^Container app has no memory limit/, negative: deployment({ pod: container('        resources: {limits: {memory: 64Mi}}\n') }) },
  { name: 'emptyDir without sizeLimit', rule: 'KFS043', text: deployment({ pod: `      volumes: [{name: scratch, emptyDir: {}}]\n${container('')}` }), underlined: 'emptyDir',
    message: /^emptyDir scratch has no sizeLimit and no container limits ephemeral-storage/, negative: deployment({ pod: `      volumes: [{name: scratch, emptyDir: {sizeLimit: 1Gi}}]\n${container('')}` }) },
  { name: 'memory-backed emptyDir without sizeLimit: RAM, not disk', rule: 'KFS043', text: deployment({ pod: `      volumes: [{name: tmp, emptyDir: {medium: Memory}}]\n${container('        resources: {limits: {ephemeral-storage: 1Gi}}\n')}` }), underlined: 'emptyDir',
    message: /^emptyDir tmp is memory-backed \(tmpfs\) with no sizeLimit, and not every container has a memory limit: what it holds is RAM/,
    negative: deployment({ pod: `      volumes: [{name: tmp, emptyDir: {medium: Memory}}]\n${container('        resources: {limits: {memory: 256Mi}}\n')}` }) },
  { name: 'maxSurge and maxUnavailable both 0', rule: 'KFS050', severity: 'error', text: deployment({ spec: '  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}\n' }), underlined: '0',
    message: /^The API server rejects this Deployment: maxSurge and maxUnavailable cannot both be 0/, negative: deployment({ spec: '  strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}\n' }) },
  { name: 'PDB that never allows a disruption, with the workload as related information', rule: 'KFS051',
    text: 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: shop}\nspec:\n  minAvailable: 2\n  selector: {matchLabels: {app: web}}\n', others: [deployment({ replicas: 2 })],
    underlined: '2', message: /^This PodDisruptionBudget never allows a voluntary disruption \(minAvailable 2 ≥ the 2 replicas of Deployment\/web\)/,
    negative: 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: shop}\nspec:\n  minAvailable: 1\n  selector: {matchLabels: {app: web}}\n', negativeOthers: [deployment({ replicas: 2 })] },
  { name: 'no PDB for several replicas', rule: 'KFS052', severity: 'info', text: deployment({ replicas: 3 }), underlined: '3',
    message: /^No PodDisruptionBudget selects Deployment\/web: a drain or a node upgrade may evict all 3 replicas at once/,
    negative: deployment({ replicas: 3 }), negativeOthers: ['apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: shop}\nspec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}\n'] },
  { name: 'StatefulSet selector that misses its template', rule: 'KFS053', severity: 'error', text: statefulSet(2).replace('matchLabels: {app: db}', 'matchLabels: {app: database}'), underlined: 'selector',
    message: /^The API server rejects this StatefulSet: spec\.selector does not match the labels of spec\.template\.metadata\.labels/, negative: statefulSet(2) },
  { name: 'Service that selects no pod template', rule: 'KFS054', text: 'apiVersion: v1\nkind: Service\nmetadata: {name: front, namespace: shop}\nspec:\n  selector: {app: frontend}\n  ports: [{port: 80}]\n', others: [deployment()],
    underlined: 'selector', message: /^No pod template of namespace shop among the inputs has the labels app=frontend: unless pods from elsewhere carry them, this Service has no endpoints/,
    negative: 'apiVersion: v1\nkind: Service\nmetadata: {name: front, namespace: shop}\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n', negativeOthers: [deployment()] },
  { name: 'invalid name', rule: 'KFS094', severity: 'error', text: deployment({ name: 'Web_App' }), underlined: 'Web_App',
    message: /^The API server rejects this Deployment: "Web_App" is not a valid name \(a name must be a DNS-1123 subdomain/, negative: deployment({ name: 'web-app' }) },
  { name: 'a name that YAML reads as a number', rule: 'KFS094', severity: 'error', text: deployment().replace('name: web, namespace', 'name: 12345, namespace'), underlined: '12345',
    message: /^The API server rejects this Deployment: metadata\.name must be a string; it is the number 12345 \(write it in quotes: "12345"\)\.$/, negative: deployment().replace('name: web, namespace', 'name: "12345", namespace') },
  { name: 'no name at all', rule: 'KFS094', severity: 'error', text: deployment().replace('name: web, namespace: shop', 'namespace: shop'), underlined: '{namespace: shop}',
    message: /^The API server rejects this Deployment: metadata\.name is required/, negative: deployment().replace('name: web, namespace: shop', 'generateName: web-, namespace: shop') },
  { name: 'a ReplicationController whose selector and template labels are both empty', rule: 'KFS094', severity: 'error',
    text: 'apiVersion: v1\nkind: ReplicationController\nmetadata: {name: rc, namespace: shop}\nspec:\n  replicas: 2\n  template:\n    spec: {containers: [{name: c, image: app}]}\n', underlined: 'ReplicationController',
    message: /^The API server rejects this ReplicationController: spec\.selector is required: it is empty, and so are spec\.template\.metadata\.labels it defaults to\.$/,
    negative: 'apiVersion: v1\nkind: ReplicationController\nmetadata: {name: rc, namespace: shop}\nspec:\n  replicas: 2\n  template:\n    metadata: {labels: {app: rc}}\n    spec: {containers: [{name: c, image: app}]}\n' },
  { name: 'invalid namespace', rule: 'KFS094', severity: 'error', text: deployment().replace('namespace: shop', 'namespace: "Bad_NS!"'), underlined: '"Bad_NS!"',
    message: /^The API server rejects this Deployment: metadata\.namespace "Bad_NS!" is not a valid namespace \(a DNS-1123 label/, negative: deployment().replace('namespace: shop', `namespace: ${'n'.repeat(63)}`) },
  { name: 'selector that misses the template (any workload)', rule: 'KFS094', severity: 'error', text: deployment().replace('matchLabels: {app: web}', 'matchLabels: {app: other}'), underlined: 'selector',
    message: /^The API server rejects this Deployment: spec\.selector does not match the labels of spec\.template\.metadata\.labels/, negative: deployment() },
  { name: 'an empty selector, which would select every pod of the namespace', rule: 'KFS094', severity: 'error', text: deployment().replace('selector: {matchLabels: {app: web}}', 'selector: {}'), underlined: 'selector',
    message: /^The API server rejects this Deployment: spec\.selector is empty, which would select every pod of the namespace \(empty selector is invalid for deployment\)\.$/,
    negative: deployment().replace('selector: {matchLabels: {app: web}}', 'selector: {matchExpressions: [{key: app, operator: Exists}]}') },
  { name: 'an empty selector of a StatefulSet', rule: 'KFS094', severity: 'error', text: statefulSet(1).replace('selector: {matchLabels: {app: db}}', 'selector: {matchLabels: {}}'), underlined: 'selector',
    message: /empty selector is invalid for statefulset\)\.$/, negative: statefulSet(1) },
  { name: 'a container name that is not a DNS-1123 label (control characters shown escaped)', rule: 'KFS094', severity: 'error', text: deployment({ pod: '      containers: [{name: "app\\u0007\\u001b[2J", image: app}]\n' }), underlined: '"app\\u0007\\u001b[2J"',
    message: /^The API server rejects this Deployment: spec\.template\.spec\.containers\[0\]\.name "app\\u0007\\u001b\[2J" is not a valid container name \(a DNS-1123 label/, negative: deployment({ pod: '      containers: [{name: app-1, image: app}]\n' }) },
  { name: 'a memory request above its limit', rule: 'KFS094', severity: 'error', text: deployment({ pod: '      containers: [{name: app, image: app, resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}}]\n' }), underlined: '2Gi',
    message: /^The API server rejects this Deployment: spec\.template\.spec\.containers\[0\]\.resources\.requests\.memory 2Gi must be less than or equal to the memory limit of 1Gi\.$/,
    negative: deployment({ pod: '      containers: [{name: app, image: app, resources: {requests: {memory: 1Gi}, limits: {memory: 1Gi}}}]\n' }) },
  { name: 'two containers of one name', rule: 'KFS094', severity: 'error', text: deployment({ pod: '      containers: [{name: app, image: app}, {name: app, image: proxy}]\n' }), underlined: 'app',
    message: /^The API server rejects this Deployment: spec\.template\.spec\.containers\[1\]\.name "app" is the name of another container of the pod/, negative: deployment({ pod: '      containers: [{name: app, image: app}, {name: proxy, image: proxy}]\n' }) },
  { name: 'a workload without containers', rule: 'KFS094', severity: 'error', text: deployment({ pod: '      containers: []\n' }), underlined: 'containers',
    message: /^The API server rejects this Deployment: spec\.template\.spec\.containers needs at least one container/, negative: deployment() },
];

function underlined(text: string, range: { start: { line: number; character: number }; end: { line: number; character: number } }): string {
  const lines = text.split('\n');
  if (range.start.line === range.end.line) return lines[range.start.line].slice(range.start.character, range.end.character);
  return [lines[range.start.line].slice(range.start.character), ...lines.slice(range.start.line + 1, range.end.line), lines[range.end.line].slice(0, range.end.character)].join('\n');
}

describe('rules (RULES.md sections A–E)', () => {
  for (const c of CASES) {
    it(`${c.rule} ${c.name}`, () => {
      const findings = analyse(c.text, c.others ?? []).findings.filter((f) => f.ruleId === c.rule);
      assert.equal(findings.length, 1, `expected one ${c.rule}, got ${JSON.stringify(findings.map((f) => f.message))}`);
      const [finding] = findings;
      assert.equal(underlined(c.text, finding.range), c.underlined);
      assert.match(finding.message, c.message);
      assert.equal(finding.severity, c.severity ?? 'warning');
      assert.deepEqual(analyse(c.negative, c.negativeOthers ?? []).findings.filter((f) => f.ruleId === c.rule).map((f) => f.message), [], 'negative case');
    });
  }

  it('a container name YAML reads as a boolean (name: n): KFS092 says to quote what was written, and other messages name the container by its place', () => {
    const findings = analyse(deployment({ pod: '      containers: [{name: n, image: app}]\n' })).findings;
    assert.match(findings.find((f) => f.ruleId === 'KFS092')!.message, /containers\[0\]\.name must be a string; it is false \(kubectl reads true, false, yes, no, on, off, y and n as booleans: write it in quotes\)\.$/);
    assert.match(findings.find((f) => f.ruleId === 'KFS042')!.message, /^Container number 1 has no memory limit/);
    // The object's own name says the same.
    const kfs094 = analyse(deployment().replace('name: web, namespace', 'name: yes, namespace')).findings.find((f) => f.ruleId === 'KFS094')!;
    assert.match(kfs094.message, /metadata\.name must be a string; it is the boolean true \(kubectl reads true, false, yes, no, on, off, y and n as booleans: write it in quotes\)\.$/);
  });

  it('KFS010 is not reported when pod anti-affinity or topologySpreadConstraints spread the replicas, or for one replica', () => {
    const kfs010 = (text: string) => analyse(text).findings.filter((f) => f.ruleId === 'KFS010').map((f) => f.message);
    const antiAffinity = `      affinity:\n        podAntiAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n          - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}}\n${container('')}`;
    const preferredZone = `      affinity:\n        podAntiAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n          - {weight: 100, podAffinityTerm: {topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: web}}}}\n${container('')}`;
    const spread = `      topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}]\n${container('')}`;
    assert.deepEqual(kfs010(deployment({ replicas: 3, pod: antiAffinity })), []);
    assert.deepEqual(kfs010(deployment({ replicas: 3, pod: preferredZone })), []);
    assert.deepEqual(kfs010(deployment({ replicas: 3, pod: spread })), []);
    assert.deepEqual(kfs010(deployment({ replicas: 1 })), []);
    assert.deepEqual(kfs010(deployment({ replicas: null })), []);
    // Anti-affinity on a key that does not separate nodes does not count, nor a term that selects other pods.
    assert.equal(kfs010(deployment({ replicas: 3, pod: antiAffinity.replace('kubernetes.io/hostname', 'example.com/rack-row') })).length, 1);
    assert.equal(kfs010(deployment({ replicas: 3, pod: antiAffinity.replace('{app: web}', '{app: database}') })).length, 1);
    const otherPods = kfs010(deployment({ replicas: 3, pod: spread.replace('{app: web}', '{app: other}') }));
    assert.equal(otherPods.length, 1);
    // Constraints of its own replace the scheduler's default spreading: the message does not call on it.
    assert.match(otherPods[0], /\(its topologySpreadConstraints count other pods and take the place of the scheduler's default spreading: only its scoring of free room keeps them apart\)/);
    // Nor does a term that looks for the workload's pods in another namespace.
    assert.equal(kfs010(deployment({ replicas: 3, pod: antiAffinity.replace('topologyKey: kubernetes.io/hostname,', 'topologyKey: kubernetes.io/hostname, namespaces: [elsewhere],') })).length, 1);
    assert.deepEqual(kfs010(deployment({ replicas: 3, pod: antiAffinity.replace('topologyKey: kubernetes.io/hostname,', 'topologyKey: kubernetes.io/hostname, namespaces: [shop],') })), []);
    // A namespaceSelector adds namespaces: {} all of them; one on labels the input does not tell may select the pods' own.
    const inNamespaces = (selector: string) => kfs010(deployment({ replicas: 3, pod: antiAffinity.replace('topologyKey: kubernetes.io/hostname,', `topologyKey: kubernetes.io/hostname, namespaces: [elsewhere], namespaceSelector: ${selector},`) }));
    for (const selector of ['{}', '{matchLabels: {team: web}}', '{matchLabels: {kubernetes.io/metadata.name: shop}}']) assert.deepEqual(inNamespaces(selector), [], selector);
    assert.equal(inNamespaces('{matchLabels: {kubernetes.io/metadata.name: elsewhere, team: web}}').length, 1);
    // A Namespace object tells the labels: the selector then picks the pods' own namespace or not by them.
    const declared = (labels: string) => kfs010(`apiVersion: v1\nkind: Namespace\nmetadata: {name: shop, labels: {${labels}}}\n---\n${deployment({ replicas: 3, pod: antiAffinity.replace('topologyKey: kubernetes.io/hostname,', 'topologyKey: kubernetes.io/hostname, namespaceSelector: {matchLabels: {team: web}},') })}`);
    assert.deepEqual(declared('team: web'), []);
    assert.equal(declared('team: db').length, 1);
    // Without Node objects, the invented nodes have room for every replica a worst placement packs (2 CPU each here, not one 4-CPU node's worth).
    const large = kfs010(deployment({ replicas: 2, pod: container('        resources: {requests: {cpu: "2", memory: 1Gi}, limits: {cpu: "2", memory: 1Gi}}\n') }));
    assert.match(large[0] ?? '', /^If the scheduler packs its 2 replicas on one node/);
    const [explained] = analyse(deployment({ replicas: 2 })).findings.filter((f) => f.ruleId === 'KFS010');
    assert.match(explained.explanation ?? '', /^Simulated with the pods packed onto as few nodes as the filters allow, on invented nodes with room for all 2 \(give Node objects to simulate on yours\):/);
    // A host port is one pod per node: the scheduler cannot pack them (NodePorts).
    assert.deepEqual(kfs010(deployment({ replicas: 3, pod: container('        ports: [{containerPort: 80, hostPort: 80}]\n') })), []);
  });

  it('KFS092: a probe\'s or hook\'s port is a number from 1 to 65535 or a port name, as the API server requires', () => {
    const probe = (port: string, handler = 'httpGet: {path: /, port: PORT}') => analyse(deployment({ pod: container(`        readinessProbe: {${handler.replace('PORT', port)}}\n`) })).findings.filter((f) => f.ruleId === 'KFS092').map((f) => f.message);
    assert.deepEqual(probe('"8080"'), ['spec.template.spec.containers[0].readinessProbe.httpGet.port "8080" is not a valid port name (it needs at least one letter); a port number is written without quotes: 8080.']);
    assert.match(probe('70000')[0], /readinessProbe\.httpGet\.port .*65535/);
    assert.match(probe('my--port')[0], /"my--port" is not a valid port name \(no two hyphens in a row\)/);
    assert.match(probe('Http')[0], /only lowercase letters, digits and '-'/);
    assert.deepEqual(probe('', 'tcpSocket: {}'), ['spec.template.spec.containers[0].readinessProbe.tcpSocket.port is required.']);
    for (const port of ['8080', 'http', 'metrics-2']) assert.deepEqual(probe(port), [], port);
    assert.match(probe('0', 'grpc: {port: PORT}')[0], /readinessProbe\.grpc\.port/);
    const hook = analyse(deployment({ pod: container('        lifecycle: {preStop: {httpGet: {path: /drain, port: "80"}}}\n') })).findings.filter((f) => f.ruleId === 'KFS092');
    assert.match(hook[0]?.message ?? '', /lifecycle\.preStop\.httpGet\.port "80" is not a valid port name/);
    const postStart = analyse(deployment({ pod: container('        lifecycle: {postStart: {tcpSocket: {}}}\n') })).findings.filter((f) => f.ruleId === 'KFS092');
    assert.deepEqual(postStart.map((f) => f.message), ['spec.template.spec.containers[0].lifecycle.postStart.tcpSocket.port is required.']);
    assert.deepEqual(probe('', 'grpc: {}'), ['spec.template.spec.containers[0].readinessProbe.grpc.port is required.']);
  });

  it('KFS094 calls a selector empty only as written: one whose entries are invalid gets their KFS092 alone; a null one is missing', () => {
    const messages = (selector: string) => analyse(deployment().replace('selector: {matchLabels: {app: web}}', `selector: ${selector}`)).findings.filter((f) => f.ruleId === 'KFS092' || f.ruleId === 'KFS094').map((f) => `${f.ruleId} ${f.message}`);
    for (const invalid of ['{matchExpressions: [{key: app, operator: in, values: [web]}]}', '{matchLabels: {app: 5}}', '{matchLabels: [app]}']) {
      assert.deepEqual(messages(invalid).map((m) => m.slice(0, 6)), ['KFS092'], invalid);
    }
    assert.deepEqual(messages('null'), ['KFS094 The API server rejects this Deployment: spec.selector is required.']);
    assert.match(messages('{matchLabels: null}')[0], /spec\.selector is empty/);
  });

  it('KFS054 says that a document it could not read may hold the pod template, when one was skipped', () => {
    const service = 'apiVersion: v1\nkind: Service\nmetadata: {name: front, namespace: shop}\nspec:\n  selector: {app: frontend}\n  ports: [{port: 80}]\n';
    const template = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Values.name }}\n  namespace: shop\n';
    const [hedged] = analyse(service, [deployment(), template]).findings.filter((f) => f.ruleId === 'KFS054');
    assert.match(hedged.message, /^No pod template of namespace shop among the documents read has the labels app=frontend; a document of the input that could not be read \(a template or a YAML error, skipped\) may have them\./);
    const [plain] = analyse(service, [deployment()]).findings.filter((f) => f.ruleId === 'KFS054');
    assert.match(plain.message, /^No pod template of namespace shop among the inputs has the labels app=frontend:/);
  });

  it('KFS010 on a StatefulSet: packed replicas stay down until someone acts', () => {
    const [finding] = analyse(statefulSet(3)).findings.filter((f) => f.ruleId === 'KFS010');
    assert.equal(finding.message, "If the scheduler packs its 3 replicas on one node (only the scheduler's default spreading, soft and of maxSkew 3, keeps them apart), that node's failure takes all of them down until the node returns or someone acts; spread them: a topologySpreadConstraint of their own over kubernetes.io/hostname (ScheduleAnyway with maxSkew 1 never leaves a replacement Pending).");
    assert.equal(underlined(statefulSet(3), finding.range), '3');
  });

  it('KFS022 sees the same check written two ways: a port by its name or its number, keys in another order', () => {
    const kfs022 = (probes: string) => analyse(deployment({ pod: container(`        ports: [{name: http, containerPort: 8080}]\n${probes}`) })).findings.filter((f) => f.ruleId === 'KFS022').length;
    assert.equal(kfs022('        livenessProbe: {httpGet: {path: /health, port: http}}\n        readinessProbe: {httpGet: {port: 8080, path: /health}}\n'), 1);
    assert.equal(kfs022('        livenessProbe: {httpGet: {path: /health, port: http}}\n        readinessProbe: {httpGet: {path: /health, port: 8081}}\n'), 0);
    assert.equal(kfs022('        livenessProbe: {httpGet: {path: /health, port: admin}}\n        readinessProbe: {httpGet: {path: /health, port: 8080}}\n'), 0);
    // An HTTP GET and a TCP connect on one port are two checks.
    assert.equal(kfs022('        livenessProbe: {httpGet: {port: http}}\n        readinessProbe: {tcpSocket: {port: 8080}}\n'), 0);
  });

  it('KFS022 leaves alone a liveness TCP check equal to the readiness one: an overloaded process still completes handshakes (KFS023 tells what TCP misses)', () => {
    const tcp = deployment({ pod: container('        livenessProbe: {tcpSocket: {port: 80}, initialDelaySeconds: 30}\n        readinessProbe: {tcpSocket: {port: 80}}\n') });
    const ids = analyse(tcp).findings.map((f) => f.ruleId);
    assert.ok(!ids.includes('KFS022') && ids.includes('KFS023'), ids.join(' '));
  });

  it('KFS002 on a single-replica StatefulSet leaves the stuck pod and its release to KFS001 instead of saying them twice', () => {
    const findings = analyse(statefulSet(1)).findings;
    const kfs002 = findings.find((f) => f.ruleId === 'KFS002')!;
    assert.match(kfs002.message, /^Down until the node returns or someone acts if its node fails: db-0 stays Terminating on the failed node .*\(KFS001 says how to release it\)\. A second member/);
    assert.doesNotMatch(kfs002.message, /force-delete|out-of-service/);
    assert.match(findings.find((f) => f.ruleId === 'KFS001')!.message, /once you are sure the node is off \(a pod still running there would run twice\), force-delete it/);
    // Its second member would start with an empty volume only if it has volumes of its own.
    assert.doesNotMatch(kfs002.message, /empty volume/);
    const claims = '  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n';
    assert.match(analyse(statefulSet(1, claims)).findings.find((f) => f.ruleId === 'KFS002')!.message, /replicates its data \(a StatefulSet's second pod starts with its own empty volume\)\./);
  });

  it('KFS005 on a claim bound to a hostPath PersistentVolume without node affinity: the data stays behind', () => {
    const withClaim = deployment({ pod: '      volumes: [{name: m, persistentVolumeClaim: {claimName: models}}]\n      containers: [{name: c, image: app}]\n' });
    const claim = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: models, namespace: shop}\nspec: {volumeName: models-pv, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n';
    const pv = 'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: models-pv}\nspec: {accessModes: [ReadWriteOnce], capacity: {storage: 1Gi}, hostPath: {path: /mnt/models}}\n';
    const [finding] = analyse(withClaim, [claim, pv]).findings.filter((f) => f.ruleId === 'KFS005');
    assert.match(finding.message, /^Claim models is bound to models-pv, a hostPath volume \(\/mnt\/models\): the data stays on the node the pod ran on, and if that node fails the pod is recreated elsewhere, on that node's copy of the path \(empty, unless every node holds the same data\)/);
  });

  it('KFS005 on a bare Pod does not speak of it being recreated (KFS003 says it never is); kubeadm\'s etcd gets neither', () => {
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata: {name: redis, namespace: shop}\nspec:\n  containers: [{name: c, image: redis, volumeMounts: [{name: d, mountPath: /data}]}]\n  volumes: [{name: d, hostPath: {path: /srv/redis}}]\n';
    const findings = analyse(pod).findings;
    assert.match(findings.find((f) => f.ruleId === 'KFS005')!.message, /if the node fails, the pod is never recreated, and a copy of it on another node would not have it/);
    const etcd = pod.replace('namespace: shop', 'namespace: kube-system').replace('image: redis', 'image: registry.k8s.io/etcd:3.5.12-0').replace('/srv/redis', '/var/lib/etcd');
    assert.deepEqual(analyse(etcd).findings.map((f) => f.ruleId).filter((id) => id === 'KFS003' || id === 'KFS005'), []);
  });

  it('KFS002 offers no second replica to a Deployment whose pods share one ReadWriteOnce claim (Multi-Attach)', () => {
    const withClaim = deployment({ pod: '      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n      containers: [{name: c, image: app, volumeMounts: [{name: data, mountPath: /data}]}]\n' });
    const claim = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: shop}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n';
    const [finding] = analyse(withClaim, [claim]).findings.filter((f) => f.ruleId === 'KFS002');
    assert.match(finding.message, /A second replica would not help: it would mount the same ReadWriteOnce claim data, which only one node can attach/);
    assert.equal(finding.fixes, undefined);
    const shared = analyse(withClaim, [claim.replace('ReadWriteOnce', 'ReadWriteMany')]).findings.find((f) => f.ruleId === 'KFS002')!;
    assert.match(shared.message, /A second replica on another node keeps it serving/);
  });

  it('KFS002 says when the Service in front also sends traffic to another workload (blue/green)', () => {
    const svc = 'apiVersion: v1\nkind: Service\nmetadata: {name: front, namespace: shop}\nspec: {selector: {tier: front}, ports: [{port: 80}]}\n';
    const blue = deployment({ name: 'blue' }).replace('labels: {app: blue}', 'labels: {app: blue, tier: front}');
    const green = deployment({ name: 'green' }).replace('labels: {app: green}', 'labels: {app: green, tier: front}');
    const [finding] = analyse(blue, [svc, green]).findings.filter((f) => f.ruleId === 'KFS002');
    assert.match(finding.message, / Service front also sends traffic to Deployment\/green, so the Service keeps answering while that workload's pods run on other nodes\.$/);
    assert.doesNotMatch(analyse(blue, [svc]).findings.find((f) => f.ruleId === 'KFS002')!.message, /also sends traffic/);
    // The same Deployment written in a second file is one object, not another workload behind the Service.
    assert.doesNotMatch(analyse(blue, [svc, blue]).findings.find((f) => f.ruleId === 'KFS002')!.message, /also sends traffic/);
    // ... and the other workload written twice is named once.
    assert.match(analyse(blue, [svc, green, green]).findings.find((f) => f.ruleId === 'KFS002')!.message, / also sends traffic to Deployment\/green, so the Service keeps answering while that workload's pods run/);
  });

  it('KFS002 leaves the replica count to a HorizontalPodAutoscaler: nothing with minReplicas 2 or more, the autoscaler named with 1', () => {
    const hpa = (min: number) => `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web-hpa, namespace: shop}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: ${min}\n  maxReplicas: 10\n`;
    const kfs002 = (others: string[]) => analyse(deployment({ replicas: null }), others).findings.filter((f) => f.ruleId === 'KFS002');
    assert.equal(kfs002([]).length, 1);
    assert.deepEqual(kfs002([hpa(3)]), []);
    const [scaledDown] = kfs002([hpa(1)]);
    assert.match(scaledDown.message, /while HorizontalPodAutoscaler web-hpa has scaled it to 1 replica: .*Set minReplicas: 2 in the autoscaler, not replicas here\.$/);
    assert.equal(scaledDown.fixes, undefined);
    // Three replicas written do not keep an autoscaler from scaling down to its minReplicas 1.
    const written = analyse(deployment({ replicas: 3 }), [hpa(1)]).findings.filter((f) => f.ruleId === 'KFS002');
    assert.match(written[0]?.message ?? '', /while HorizontalPodAutoscaler web-hpa has scaled it to 1 replica/);
  });

  it('KFS009 says when a written toleration with seconds gets a DaemonSet pod evicted: it is read before the controller\'s own', () => {
    const pod = `      tolerations: [{key: node.kubernetes.io/unreachable, operator: Equal, effect: NoExecute, tolerationSeconds: 60}]\n${container('')}`;
    const [kfs009] = analyse(deployment({ kind: 'DaemonSet', replicas: null, pod })).findings.filter((f) => f.ruleId === 'KFS009');
    assert.match(kfs009.message, /^Its pod on a failed node is evicted at 1m5[0-9]s: a written toleration of the node's taint with tolerationSeconds 60 is read before the DaemonSet's own one without seconds\./);
  });

  it('KFS041 says what keeps a container from Guaranteed: no limit of a resource, or a request below it (an unset request is the limit)', () => {
    const kfs041 = (resources: string) => analyse(deployment({ pod: container(`        resources: ${resources}\n`) })).findings.find((f) => f.ruleId === 'KFS041')!.message.split(':')[0];
    assert.equal(kfs041('{limits: {cpu: "1"}}'), 'Container app has no memory limit');
    assert.equal(kfs041('{requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 500m}}'), 'Container app has a cpu request below its limit and no memory limit');
  });

  it('KFS010 counts the pods an autoscaler keeps: a Deployment without replicas that an autoscaler keeps at 3 is warned', () => {
    const hpa = 'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, namespace: shop}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 3\n  maxReplicas: 10\n';
    const kfs010 = (others: string[]) => analyse(deployment({ replicas: null }), others).findings.filter((f) => f.ruleId === 'KFS010');
    assert.deepEqual(kfs010([]), []);
    const [finding] = kfs010([hpa]);
    assert.match(finding.message, /^If the scheduler packs its 3 or more replicas on one node \(only the scheduler's default spreading, soft and of maxSkew 3, keeps them apart\)/);
  });

  it('KFS051 leaves a PodDisruptionBudget of a DaemonSet alone: kubectl drain --ignore-daemonsets never evicts its pods', () => {
    const daemonSet = 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: shop}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: c, image: agent}]\n';
    const pdb = (app: string) => `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: ${app}, namespace: shop}\nspec:\n  minAvailable: 1\n  selector: {matchLabels: {app: ${app}}}\n`;
    assert.deepEqual(analyse(pdb('agent'), [daemonSet]).findings.filter((f) => f.ruleId === 'KFS051'), []);
    assert.equal(analyse(pdb('web'), [deployment({ replicas: 1 })]).findings.filter((f) => f.ruleId === 'KFS051').length, 1);
    // A budget of policy/v1beta1, which the API server no longer serves (KFS094), neither blocks drains nor covers the workload.
    const removed = pdb('web').replace('policy/v1', 'policy/v1beta1');
    assert.deepEqual(analyse(removed, [deployment({ replicas: 1 })]).findings.map((f) => f.ruleId).filter((id) => id === 'KFS051' || id === 'KFS094'), ['KFS094']);
    const [kfs052] = analyse(deployment({ replicas: 3 }), [removed]).findings.filter((f) => f.ruleId === 'KFS052');
    // It names the budget it cannot count, rather than advising one that is written already.
    assert.match(kfs052.message, /^PodDisruptionBudget web selects Deployment\/web but is written as policy\/v1beta1, which Kubernetes 1\.36 no longer serves \(KFS094\): it is never created, so a drain or a node upgrade may evict all 3 replicas at once\. Write it as policy\/v1\.$/);
    assert.equal(kfs052.related?.[0].message, 'PodDisruptionBudget web: policy/v1beta1');
  });

  it('KFS030 leaves a shell that traps SIGTERM or runs one program alone; KFS032 reads sleep 60s as 60 seconds', () => {
    const kfs030 = (script: string) => analyse(deployment({ pod: container(`        command: [sh, -c, ${JSON.stringify(script)}]\n`) })).findings.filter((f) => f.ruleId === 'KFS030');
    assert.deepEqual(kfs030("trap 'exit 0' TERM; while true; do sleep 1 & wait; done"), []);
    assert.deepEqual(kfs030('trap cleanup INT SIGTERM; node server.js & wait'), []);
    assert.equal(kfs030('trap cleanup EXIT; node server.js').length, 1);
    // One program alone: the shell runs it in its own place, so it is PID 1 (bash, dash, BusyBox ash).
    assert.deepEqual(kfs030('node server.js --port 8080'), []);
    // The stops each kind has: a Deployment's rollout and drain, a bare Pod's deletion (no rollout), a DaemonSet's rollout (no drain).
    assert.match(kfs030('trap cleanup EXIT; node server.js')[0].message, /every stop \(rollout, eviction, drain\)/);
    const bare = 'apiVersion: v1\nkind: Pod\nmetadata: {name: solo, namespace: shop}\nspec:\n  containers: [{name: app, image: node, command: [sh, -c, "node a.js; node b.js"]}]\n';
    assert.match(analyse(bare).findings.find((f) => f.ruleId === 'KFS030')!.message, /every stop \(deletion, eviction, drain\)/);
    const ds = deployment({ kind: 'DaemonSet', pod: container('        command: [sh, -c, "node a.js; node b.js"]\n') }).replace(/  replicas: 1\n/, '');
    assert.match(analyse(ds).findings.find((f) => f.ruleId === 'KFS030')!.message, /every stop \(rollout, deletion, node shutdown\)/);
    const [kfs032] = analyse(deployment({ pod: container('        lifecycle: {preStop: {exec: {command: [sh, -c, "sleep 60s"]}}}\n') })).findings.filter((f) => f.ruleId === 'KFS032');
    assert.match(kfs032.message, /sleeps 60s but terminationGracePeriodSeconds is 30s: .* cut short by 28–30s\.$/);
    const [barely] = analyse(deployment({ pod: container('        lifecycle: {preStop: {exec: {command: [sleep, "31"]}}}\n') })).findings.filter((f) => f.ruleId === 'KFS032');
    assert.match(barely.message, /cut short by up to 1s\.$/);
  });

  it('KFS024 reads hosts, not paths or the pod itself: df -h /data, 0.0.0.0, [::1] and $(hostname -i) are not other hosts', () => {
    const kfs024 = (command: string[]) => analyse(deployment({ pod: container(`        livenessProbe: {exec: {command: ${JSON.stringify(command)}}}\n`) })).findings.filter((f) => f.ruleId === 'KFS024').map((f) => f.message);
    for (const local of [['sh', '-c', 'df -h /data'], ['sh', '-c', 'curl -f http://$(hostname -i):8080/'], ['curl', 'http://0.0.0.0:8080/'], ['curl', 'http://[::1]:8080/'], ['redis-cli', '-h', '127.0.0.1', 'ping']]) {
      assert.deepEqual(kfs024(local), [], local.join(' '));
    }
    assert.match(kfs024(['pg_isready', '--host=pg.db.svc'])[0], /^This livenessProbe reaches pg\.db\.svc:/);
    assert.match(kfs024(['curl', 'http://[fd00::5]:8080/'])[0], /reaches \[fd00::5\]:/);
  });

  it('KFS094 on a version a later Kubernetes no longer serves, by the version analysed: policy/v1beta1 is gone from 1.25, autoscaling/v2beta2 from 1.26', () => {
    const pdb = 'apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: shop}\nspec:\n  maxUnavailable: 1\n  selector: {matchLabels: {app: web}}\n';
    const hpa = 'apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, namespace: shop}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 2\n  maxReplicas: 4\n';
    const rejected = (text: string, version: string) => analyse(text, [deployment({ replicas: 3 })], { overrides: [], version: { value: version, source: 'test' } })
      .findings.filter((f) => f.ruleId === 'KFS094').map((f) => ({ message: f.message, underlined: underlined(text, f.range) }));
    const [gone] = rejected(pdb, '1.29');
    assert.match(gone.message, /^The API server rejects this PodDisruptionBudget: Kubernetes 1\.29 does not serve policy\/v1beta1 \(removed in 1\.25\): .*Write apiVersion: policy\/v1\.$/);
    assert.equal(gone.underlined, 'policy/v1beta1');
    assert.deepEqual(rejected(pdb, '1.24'), []);
    assert.equal(rejected(hpa, '1.26').length, 1);
    assert.deepEqual(rejected(hpa, '1.25'), []);
  });

  it('KFS007 only for the toleration that decides: the first that tolerates the taint, its operator and value included', () => {
    const tolerations = (list: string) => deployment({ replicas: 2, pod: `      tolerations: ${list}\n${container('')}` });
    const kfs007 = (list: string) => analyse(tolerations(list)).findings.filter((f) => f.ruleId === 'KFS007');
    // unreachable and not-ready each meet a 30 s toleration first: a later Exists never decides for them.
    assert.deepEqual(kfs007('[{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}, {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 30}, {operator: Exists}]'), []);
    // A value the taint does not have tolerates nothing.
    assert.deepEqual(kfs007('[{key: node.kubernetes.io/unreachable, operator: Equal, value: x, effect: NoExecute}]'), []);
    assert.equal(kfs007('[{operator: Exists}]').length, 1);
  });

  it('KFS040 and KFS041 follow the QoS class: ephemeral-storage does not count, init containers do', () => {
    const ids = (pod: string) => analyse(deployment({ pod })).findings.map((f) => f.ruleId).filter((id) => id === 'KFS040' || id === 'KFS041');
    // Only ephemeral-storage: BestEffort, and no "requests below limits".
    assert.deepEqual(ids(container('        resources: {requests: {ephemeral-storage: 1Gi}, limits: {ephemeral-storage: 1Gi}}\n')), ['KFS040']);
    // Requests on an init container alone make the pod Burstable, not BestEffort: KFS041 tells it of the init container.
    const initRequests = analyse(deployment({ pod: `      initContainers: [{name: init, image: app, resources: {requests: {cpu: 100m}}}]\n${container('')}` })).findings.filter((f) => f.ruleId === 'KFS040' || f.ruleId === 'KFS041');
    assert.deepEqual(initRequests.map((f) => f.message.split(':')[0]), ['Init container init has no cpu limit and no memory limit', 'Container app has no cpu or memory requests or limits, while another container of the pod has some']);
    // An init container without resources keeps Guaranteed app containers' pods Burstable: it is told.
    const guaranteed = '        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}\n';
    const bareInit = analyse(deployment({ pod: `      initContainers: [{name: init, image: app}]\n${container(guaranteed)}` })).findings.filter((f) => f.ruleId === 'KFS041');
    assert.deepEqual(bareInit.map((f) => f.message.split(':')[0]), ['Init container init has no cpu or memory requests or limits, while another container of the pod has some']);
    // So is each container that keeps the pod from Guaranteed; with none that has resources, the pod is BestEffort (KFS040).
    assert.deepEqual(ids(`      initContainers: [{name: init, image: app}]\n${container('        resources: {requests: {cpu: 100m}}\n')}`), ['KFS041', 'KFS041']);
    assert.deepEqual(ids(`      initContainers: [{name: init, image: app}]\n${container('')}`), ['KFS040']);
  });

  it('KFS051 says nothing of a budget over workloads scaled to zero; KFS011 names ReadWriteOncePod where the claim asks for it', () => {
    const pdb = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: shop}\nspec:\n  minAvailable: 1\n  selector: {matchLabels: {app: web}}\n';
    assert.deepEqual(analyse(pdb, [deployment({ replicas: 0 })]).findings.filter((f) => f.ruleId === 'KFS051'), []);
    const claim = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: shop}\nspec: {accessModes: [ReadWriteOncePod], resources: {requests: {storage: 1Gi}}}\n';
    const text = deployment({ pod: '      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n      containers: [{name: c, image: app}]\n' });
    const [kfs011] = analyse(text, [claim]).findings.filter((f) => f.ruleId === 'KFS011');
    assert.match(kfs011.message, /^ReadWriteOncePod volume data stays attached to a powered-off node/);
  });

  it('KFS004 points at the field that pins the pod: the node affinity, when the nodeSelector matches every node', () => {
    const pod = `      nodeSelector: {kubernetes.io/os: linux}\n      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [db-host-7]}]}]}}}\n${container('')}`;
    const text = statefulSet(1).replace('      containers: [{name: db, image: postgres}]\n', pod);
    const [kfs004] = analyse(text).findings.filter((f) => f.ruleId === 'KFS004');
    assert.equal(underlined(text, kfs004.range), 'nodeAffinity');
  });

  it('KFS011 and KFS002 on a disk written in the pod spec (gcePersistentDisk): attached to one node at a time, as a ReadWriteOnce claim; not a read-only GCE disk', () => {
    const text = deployment({ pod: '      volumes: [{name: data, gcePersistentDisk: {pdName: mongo-disk, fsType: ext4}}]\n      containers: [{name: c, image: mongo}]\n' });
    const findings = analyse(text).findings;
    const kfs011 = findings.find((f) => f.ruleId === 'KFS011')!;
    assert.match(kfs011.message, /^Disk gcePersistentDisk mongo-disk, attached to one node at a time, stays attached to a powered-off node: .*simulated: replacement \S+ waits in ContainerCreating \(Multi-Attach error\)/);
    assert.equal(underlined(text, kfs011.range), 'gcePersistentDisk');
    assert.match(findings.find((f) => f.ruleId === 'KFS002')!.message, /^Down until the node returns or someone acts if its node fails: .*its disk gcePersistentDisk mongo-disk is still attached to worker-a1 \(Multi-Attach error\).* A second replica would not help: it would mount the same disk gcePersistentDisk mongo-disk/);
    const readOnly = analyse(text.replace('fsType: ext4', 'readOnly: true')).findings;
    assert.ok(!readOnly.some((f) => f.ruleId === 'KFS011'));
    assert.match(readOnly.find((f) => f.ruleId === 'KFS002')!.message, /^Down for about \d+m\d+s if its node fails/);
  });

  it('KFS011 on a claim that is not among the inputs says its access mode is assumed', () => {
    const text = deployment({ pod: '      volumes: [{name: shared, persistentVolumeClaim: {claimName: shared-efs}}]\n      containers: [{name: c, image: app}]\n' });
    const [finding] = analyse(text).findings.filter((f) => f.ruleId === 'KFS011');
    assert.match(finding.message, /^If claim shared-efs \(not among the inputs\) is ReadWriteOnce, its volume stays attached to a powered-off node/);
    // KFS002 says so too, and does not promise that a second replica, which mounts the same claim, keeps it serving.
    const [kfs002] = analyse(text).findings.filter((f) => f.ruleId === 'KFS002');
    assert.match(kfs002.message, /^Down until the node returns or someone acts if its node fails and claim shared-efs \(not among the inputs\) is ReadWriteOnce, as simulated: .* A second replica would mount the same claim: it keeps the workload serving only if the claim is ReadWriteMany\.$/);
    // Simulated, a second replica would not help (the same claim, taken as ReadWriteOnce): no fix that sets it.
    assert.equal(kfs002.fixes, undefined);
  });

  it('KFS011 once per volume: a template volume named like a volumeClaimTemplate is replaced by its per-pod claim', () => {
    const text = statefulSet(1, '  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n')
      .replace('      containers: [{name: db, image: postgres}]\n', '      containers: [{name: db, image: postgres}]\n      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n');
    const findings = analyse(text).findings.filter((f) => f.ruleId === 'KFS011');
    assert.deepEqual(findings.map((f) => underlined(text, f.range)), ['accessModes']);
  });

  it('with no Node objects, the default cluster gets the labels and room the pods ask for: a node pool, bigger machines, a hostname', () => {
    const ids = (text: string) => analyse(text).findings.map((f) => f.ruleId).sort();
    const pod = (lines: string) => statefulSet(1).replace('      containers: [{name: db, image: postgres}]\n', `${lines}      containers: [{name: db, image: postgres, resources: {requests: {cpu: "8", memory: 64Mi}}}]\n`);
    assert.deepEqual(ids(pod('      nodeSelector: {cloud.google.com/gke-nodepool: db-pool}\n')).filter((id) => id === 'KFS001' || id === 'KFS002'), ['KFS001', 'KFS002']);
    const pinned = pod('      nodeSelector: {kubernetes.io/hostname: db-host-7}\n');
    const [kfs004] = analyse(pinned).findings.filter((f) => f.ruleId === 'KFS004');
    assert.match(kfs004.message, /^Down until db-host-7 returns if it fails: only that node of the cluster \(the default 3 zones x 2 workers fitted to what its pods ask for: 8 CPU \/ 14\.6 GiB allocatable each, one named db-host-7\) matches this selector/);
    // Two hostnames allowed are two machines: the replacement has somewhere to go.
    const either = statefulSet(1).replace('      containers:', '      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-1, node-2]}]}]}}}\n      containers:');
    assert.notEqual(either, statefulSet(1));
    assert.deepEqual(analyse(either).findings.filter((f) => f.ruleId === 'KFS004'), []);
    // So are two terms naming one host each: the terms are ORed.
    const orTerms = statefulSet(1).replace('      containers:', '      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-1]}]}, {matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-2]}]}]}}}\n      containers:');
    assert.deepEqual(analyse(orTerms).findings.filter((f) => f.ruleId === 'KFS004'), []);
    // Each term gets a node as it asks, with its other labels too; a term without a hostname is any node labelled so.
    const terms = (second: string) => statefulSet(1).replace('      containers:', `      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-1]}, {key: topology.kubernetes.io/zone, operator: In, values: [z1]}]}, {matchExpressions: [${second}]}]}}}\n      containers:`);
    assert.deepEqual(analyse(terms('{key: kubernetes.io/hostname, operator: In, values: [node-2]}, {key: topology.kubernetes.io/zone, operator: In, values: [z2]}')).findings.filter((f) => f.ruleId === 'KFS004'), []);
    assert.deepEqual(analyse(terms('{key: node-role, operator: In, values: [db]}')).findings.filter((f) => f.ruleId === 'KFS004'), []);
    // As many terms as default nodes, or one naming a default node's own host, each still get their node; Exists on the hostname names none.
    const many = statefulSet(1).replace('      containers:', `      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [${['n1', 'n2', 'n3', 'n4', 'n5'].map((n) => `{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [${n}]}]}`).join(', ')}]}}}\n      containers:`);
    assert.deepEqual(selectedNodes(readManifestText(many).model.workloads[0], emptyModel()).nodes.map((n) => n.name), ['n1', 'n2', 'n3', 'n4', 'n5']);
    assert.deepEqual(analyse(terms('{key: kubernetes.io/hostname, operator: In, values: [worker-b1]}, {key: disk, operator: In, values: [ssd]}')).findings.filter((f) => f.ruleId === 'KFS004'), []);
    assert.doesNotMatch(analyse(terms('{key: kubernetes.io/hostname, operator: Exists}')).findings.find((f) => f.ruleId === 'KFS004')?.message ?? '', /true/);
    // A second term that asks for the same one host leaves it pinned.
    assert.equal(analyse(terms('{key: kubernetes.io/hostname, operator: In, values: [node-1]}')).findings.filter((f) => f.ruleId === 'KFS004').length, 1);
    assert.deepEqual(analyse(deployment().replace('      containers:', '      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-1]}]}]}}}\n      containers:')).findings.filter((f) => f.ruleId === 'KFS004').length, 1);
    // Pinned to one node, three replicas cannot be spread: KFS004 says so, and KFS010 does not ask for spreading.
    const pinnedThree = deployment({ replicas: 3, pod: '      nodeSelector: {kubernetes.io/hostname: db-host-7}\n      containers: [{name: c, image: app}]\n' });
    assert.deepEqual(analyse(pinnedThree).findings.map((f) => f.ruleId).filter((id) => id === 'KFS004' || id === 'KFS010'), ['KFS004']);
    assert.deepEqual(analyse(deployment({ replicas: 3 })).findings.map((f) => f.ruleId).filter((id) => id === 'KFS004' || id === 'KFS010'), ['KFS010']);
    // Node objects in the workspace are the cluster as written: nothing is fitted.
    const node = 'apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {kubernetes.io/hostname: n1}}\nstatus: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}\n';
    assert.deepEqual(analyse(pinned, [node]).findings.filter((f) => f.ruleId === 'KFS004'), []);
  });

  it('KFS020 blames only a container the Services in front can reach: not a sidecar beside the app whose port they target', () => {
    const pod = container('        ports: [{containerPort: 8080, name: http}]\n        readinessProbe: {httpGet: {path: /, port: http}}\n')
      + '      - name: sidecar\n        image: envoy\n        ports: [{containerPort: 9901, name: admin}]\n';
    const service = (ports: string) => `apiVersion: v1\nkind: Service\nmetadata: {name: front, namespace: shop}\nspec: {selector: {app: web}, ports: [${ports}]}\n`;
    const kfs020 = (ports: string) => analyse(deployment({ pod }), [service(ports)]).findings.filter((f) => f.ruleId === 'KFS020').map((f) => f.message.split(':')[0]);
    assert.deepEqual(kfs020('{port: 80, targetPort: http}'), []);
    // A port no container declares: the app's readinessProbe gates the pod, so only a declared target blames the sidecar.
    assert.deepEqual(kfs020('{port: 80}'), []);
    assert.deepEqual(kfs020('{port: 80, targetPort: http}, {port: 9901, targetPort: admin}'), ['Container sidecar serves port 9901 without a readinessProbe']);
  });

  it('KFS020 on a lone container without ports that a Service targets (containerPort is informational), and no Service claimed where none is', () => {
    const service = (ports: string) => `apiVersion: v1\nkind: Service\nmetadata: {name: front, namespace: shop}\nspec: {selector: {app: web}, ports: [${ports}]}\n`;
    const kfs020 = (others: string[]) => analyse(deployment(), others).findings.filter((f) => f.ruleId === 'KFS020');
    const [targeted] = kfs020([service('{port: 80, targetPort: 8080}')]);
    assert.match(targeted.message, /^Container c serves port 8080 without a readinessProbe: .* Service front keeps sending it traffic/);
    assert.match(targeted.fixes![0].title, /^Add a readinessProbe \(httpGet \/ on port 8080\)/);
    assert.deepEqual(kfs020([service('{port: 53, protocol: UDP}')]), []);
    assert.deepEqual(kfs020([]), [], 'no port and no Service: nothing says it serves');
    const [alone] = analyse(deployment({ pod: container('        ports: [{containerPort: 8080}]\n') })).findings.filter((f) => f.ruleId === 'KFS020');
    assert.match(alone.message, /a Service in front of it \(none among the inputs\) would keep sending it traffic/);
  });

  it('KFS040 and KFS042 count what a LimitRange of the namespace writes into containers that set nothing (LimitRanger admission)', () => {
    const ids = (others: string[]) => analyse(deployment(), others).findings.map((f) => f.ruleId).filter((id) => id === 'KFS040' || id === 'KFS042');
    const limitRange = (namespace: string, item: string) => `apiVersion: v1\nkind: LimitRange\nmetadata: {name: defaults, namespace: ${namespace}}\nspec:\n  limits:\n  - ${item}\n`;
    assert.deepEqual(ids([]), ['KFS040', 'KFS042']);
    assert.deepEqual(ids([limitRange('shop', '{type: Container, default: {memory: 256Mi}, defaultRequest: {cpu: 100m, memory: 128Mi}}')]), []);
    // A default cpu only: Burstable, still without a memory limit; max alone defaults the limit.
    assert.deepEqual(ids([limitRange('shop', '{type: Container, defaultRequest: {cpu: 100m}}')]), ['KFS042']);
    assert.deepEqual(ids([limitRange('shop', '{type: Container, max: {memory: 1Gi}}')]), []);
    // Another namespace's, or a Pod-type limit (no defaults), changes nothing.
    assert.deepEqual(ids([limitRange('other', '{type: Container, default: {memory: 256Mi}}')]), ['KFS040', 'KFS042']);
    assert.deepEqual(ids([limitRange('shop', '{type: Pod, max: {memory: 1Gi}}')]), ['KFS040', 'KFS042']);
  });

  it('KFS094 on a name with a {{placeholder}} says it is a template to render first', () => {
    const [finding] = analyse(deployment({ name: '"web-{{uid}}"' })).findings.filter((f) => f.ruleId === 'KFS094');
    assert.match(finding.message, /"web-\{\{uid\}\}" is not a valid name \(.*\); \{\{uid\}\} looks like a template placeholder: render the template first\.$/);
  });

  it('KFS094 reports a second global default PriorityClass in another file, in both files, and simulate refuses the pair', () => {
    const workspace = new Workspace();
    const priorityClass = (name: string) => `apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: ${name}}\nvalue: 100\nglobalDefault: true\n`;
    workspace.setDocument('a.yaml', priorityClass('first'));
    workspace.setDocument('b.yaml', priorityClass('second'));
    workspace.setDocument('web.yaml', deployment());
    const messages = (uri: string) => workspace.analyse(uri).findings.filter((f) => f.ruleId === 'KFS094').map((f) => `${f.range.start.line + 1}: ${f.message}`);
    assert.deepEqual(messages('a.yaml'), ['5: The API server rejects this PriorityClass: only one PriorityClass can be the global default, and second (b.yaml:1) is one too: whichever is applied second is refused. Keep one.']);
    assert.deepEqual(messages('b.yaml'), ['5: The API server rejects this PriorityClass: only one PriorityClass can be the global default, and first (a.yaml:1) is one too: whichever is applied second is refused. Keep one.']);
    assert.throws(() => workspace.scenario({ ...defaultChoices(), documents: ['web.yaml'] }), /The API server refuses a second global default PriorityClass: second, when first \(a\.yaml:1\) already is one\./);
    workspace.setDocument('b.yaml', priorityClass('second').replace('globalDefault: true', 'globalDefault: false'));
    assert.deepEqual(messages('a.yaml'), []);
  });

  it('KFS094 takes a namespace of 63 characters, not 64, and leaves an unset namespace and cluster-scoped objects alone', () => {
    const kfs094 = (text: string) => analyse(text).findings.filter((f) => f.ruleId === 'KFS094').map((f) => f.message);
    assert.deepEqual(kfs094(deployment().replace('namespace: shop', `namespace: ${'n'.repeat(63)}`)), []);
    assert.match(kfs094(deployment().replace('namespace: shop', `namespace: ${'n'.repeat(64)}`))[0], /metadata\.namespace "n{64}" is not a valid namespace/);
    assert.deepEqual(kfs094(deployment().replace('metadata: {name: web, namespace: shop}', 'metadata: {name: web}')), []);
    // An empty namespace is an unset one: kubectl fills in its default namespace.
    const empty = analyse(deployment().replace('namespace: shop', 'namespace: ""'));
    assert.deepEqual(empty.findings.filter((f) => f.ruleId === 'KFS094'), []);
    assert.equal(empty.model.workloads[0].namespace, 'default');
    assert.deepEqual(kfs094('apiVersion: v1\nkind: Node\nmetadata: {name: n1, namespace: "Not A Namespace"}\n'), []);
  });

  it('KFS051 rounds a minAvailable percentage up as the disruption controller does, and reports two PDBs over the same pods', () => {
    const pdb = (name: string, spec: string) => `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: ${name}, namespace: shop}\nspec:\n${spec}  selector: {matchLabels: {app: web}}\n`;
    const kfs051 = (text: string, others: string[]) => analyse(text, others).findings.filter((f) => f.ruleId === 'KFS051').map((f) => f.message);
    assert.match(kfs051(pdb('web', '  minAvailable: 90%\n'), [deployment({ replicas: 3 })])[0], /\(minAvailable 90%, rounded up to 3, ≥ the 3 replicas of Deployment\/web\)/);
    assert.deepEqual(kfs051(pdb('web', '  minAvailable: 60%\n'), [deployment({ replicas: 3 })]), []);
    const [twice] = kfs051(pdb('web', '  maxUnavailable: 1\n'), [deployment({ replicas: 3 }), pdb('web-too', '  maxUnavailable: 1\n')]);
    assert.match(twice, /^Another PodDisruptionBudget \(web-too\) selects the same pods: the eviction API refuses/);
    // The same budget in two files (a kustomize base and its overlay) is one object once applied.
    assert.deepEqual(kfs051(pdb('web', '  maxUnavailable: 1\n'), [deployment({ replicas: 3 }), pdb('web', '  maxUnavailable: 1\n')]), []);
  });

  it('KFS051 counts the pods an autoscaler keeps (its minReplicas), as KFS002 does', () => {
    const pdb = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: shop}\nspec:\n  minAvailable: 1\n  selector: {matchLabels: {app: web}}\n';
    const hpa = (min: number) => `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web, namespace: shop}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: ${min}\n  maxReplicas: 10\n`;
    const kfs051 = (others: string[]) => analyse(pdb, others).findings.filter((f) => f.ruleId === 'KFS051');
    assert.equal(kfs051([deployment({ replicas: 1 })]).length, 1);
    assert.deepEqual(kfs051([deployment({ replicas: 1 }), hpa(3)]), []);
    // Without any budget, the autoscaled Deployment has several pods to protect (KFS052).
    const [kfs052] = analyse(deployment({ replicas: 1 }), [hpa(3)]).findings.filter((f) => f.ruleId === 'KFS052');
    assert.match(kfs052.message, /may evict all 3 or more replicas at once/);
  });

  it('a policy/v1 PDB with an empty selector selects every pod of its namespace (policy/v1beta1: none), for KFS051 and KFS052 alike', () => {
    const pdb = (apiVersion: string) => `apiVersion: ${apiVersion}\nkind: PodDisruptionBudget\nmetadata: {name: all, namespace: shop}\nspec:\n  maxUnavailable: 0\n  selector: {}\n`;
    const ids = (others: string[]) => analyse(deployment({ replicas: 3 }), others).findings.map((f) => f.ruleId).filter((id) => id === 'KFS051' || id === 'KFS052');
    assert.deepEqual(ids([pdb('policy/v1')]), []);
    assert.deepEqual(ids([pdb('policy/v1beta1')]), ['KFS052']);
    const [blocking] = analyse(pdb('policy/v1'), [deployment({ replicas: 3 })]).findings.filter((f) => f.ruleId === 'KFS051');
    assert.deepEqual(blocking.related?.map((r) => r.message.split(' ').slice(0, 2).join(' ')), ['Deployment web']);
  });

  it('points at the object that explains a finding in another file (related information)', () => {
    const pvc = 'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: local-1}\nspec:\n  local: {path: /mnt}\n  claimRef: {namespace: shop, name: data}\n  nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [worker-a1]}]}]}}\n';
    const [finding] = analyse(CASES.find((c) => c.rule === 'KFS005')!.text, [pvc]).findings.filter((f) => f.ruleId === 'KFS005');
    assert.deepEqual(finding.related?.map((r) => [r.location.uri, r.location.range.start.line, r.message]), [['other.yaml', 0, 'PersistentVolume local-1: local to one node']]);
  });

  it('every rule has a stable id, a title, a severity and a documentation link', () => {
    for (const rule of RULES) {
      assert.match(rule.id, /^KFS[0-9]{3}$/);
      assert.ok(rule.title.length > 0 && ['error', 'warning', 'info'].includes(rule.defaultSeverity));
      assert.match(rule.docs, /^https:\/\/kubernetes\.io\/docs\//);
    }
    assert.equal(new Set(RULES.map((r) => r.id)).size, RULES.length);
  });
});
