/**
 * Quick fixes: each is a minimal edit (the expected document is written out, so every other byte
 * is checked), the edited text parses to the intended object, and the effect in the title is what
 * a fresh simulation of the edited text gives.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyEdits } from '../../src/analysis/fixEffects';
import type { Finding, Fix } from '../../src/analysis/finding';
import { outageText } from '../../src/analysis/outageText';
import type { Variant } from '../../src/analysis/workloadSimulation';
import { readManifestText } from '../../src/manifest/readManifest';
import { Workspace } from '../../src/workspace/workspace';
import { describeWithCorpus, REPO_ROOT, yamlFiles } from '../support/shared';

function fixesOf(text: string, rule: string): Fix[] {
  const workspace = new Workspace();
  workspace.setDocument('main.yaml', text);
  return workspace.fixes('main.yaml').filter((f) => f.finding.ruleId === rule && !f.fix.title.startsWith('Disable ')).map((f) => f.fix);
}

function suppressionFixesOf(text: string, rule: string): Fix[] {
  const workspace = new Workspace();
  workspace.setDocument('main.yaml', text);
  return workspace.fixes('main.yaml').filter((f) => f.finding.ruleId === rule && f.fix.title.startsWith('Disable ')).map((f) => f.fix);
}

/** The outage of the document's first workload as a fresh workspace simulates it. */
function simulatedOutage(text: string, variant: Variant = 'node-lost'): string {
  const workspace = new Workspace();
  workspace.setDocument('main.yaml', text);
  const [workload] = workspace.model().workloads;
  return outageText(workspace.simulations.outcome(workload, workspace.model(), workspace.timing(), variant)!).short;
}

function valueAt(text: string, path: (string | number)[]): unknown {
  let value: unknown = readManifestText(text).objects[0].value;
  for (const segment of path) value = (value as Record<string | number, unknown>)[segment];
  return value;
}

const web = (replicas: string, podSpec = '      containers:\n      - name: web   # the app\n        image: nginx\n') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
${replicas}  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
${podSpec}`;

describe('quick fixes', () => {
  it('KFS002 "Set replicas: 2" replaces the value, shows the simulated effect, and is preferred', () => {
    const text = web('  replicas: 1   # one is enough?\n');
    const [fix] = fixesOf(text, 'KFS002');
    const edited = applyEdits(text, fix.edits);
    assert.equal(edited, web('  replicas: 2   # one is enough?\n'));
    assert.equal(valueAt(edited, ['spec', 'replicas']), 2);
    const [, before, after] = /^Set replicas: 2 \(outage if a node fails: (\S+) → (\S+)\)$/.exec(fix.title)!;
    assert.equal(before, simulatedOutage(text));
    assert.equal(after, simulatedOutage(edited));
    assert.equal(after, '0s');
    assert.match(before, /^(5m5[0-9]|6m0[0-9])s$/);
    assert.equal(fix.preferred, true);
  });

  it('KFS002 adds replicas at the top of spec when it is not written (not below the pod template), at spec\'s indentation, keeping CRLF line ends', () => {
    const text = web('').replace(/\n/g, '\r\n');
    const [fix] = fixesOf(text, 'KFS002');
    const edited = applyEdits(text, fix.edits);
    assert.equal(edited, text.replace('spec:\r\n', 'spec:\r\n  replicas: 2\r\n'));
    assert.equal(valueAt(edited, ['spec', 'replicas']), 2);
  });

  it('KFS007 adds tolerationSeconds to the toleration, in block style at its indentation', () => {
    const tolerations = '      tolerations:\n      - key: node.kubernetes.io/unreachable\n        operator: Exists\n        effect: NoExecute\n';
    const text = web('  replicas: 1\n', `${tolerations}      containers: [{name: web, image: nginx}]\n`);
    const [fix] = fixesOf(text, 'KFS007');
    const edited = applyEdits(text, fix.edits);
    assert.equal(edited, web('  replicas: 1\n', `${tolerations}        tolerationSeconds: 300\n      containers: [{name: web, image: nginx}]\n`));
    const [, before, after] = /\(outage if a node fails: (.+) → (\S+)\)$/.exec(fix.title)!;
    assert.deepEqual([before, after], ['until someone acts', simulatedOutage(edited)]);
  });

  it('KFS007 on a toleration without effect writes effect: NoExecute with the seconds (the API server refuses tolerationSeconds alone); a toleration of every taint gets no fix', () => {
    const noEffect = '      tolerations:\n      - key: node.kubernetes.io/unreachable\n        operator: Exists\n';
    const text = web('  replicas: 1\n', `${noEffect}      containers: [{name: web, image: nginx}]\n`);
    const [fix] = fixesOf(text, 'KFS007');
    assert.match(fix.title, /^Add effect: NoExecute and tolerationSeconds: 300 \(/);
    const edited = applyEdits(text, fix.edits);
    assert.equal(edited, web('  replicas: 1\n', `${noEffect}        effect: NoExecute\n        tolerationSeconds: 300\n      containers: [{name: web, image: nginx}]\n`));
    assert.deepEqual(readManifestText(edited).parsed.problems, []);
    // effect written empty: its value is set, and the toleration keeps its comments and style.
    const emptyEffect = '      tolerations:\n      - key: node.kubernetes.io/unreachable   # ticket OPS-123\n        operator: Exists\n        effect: ""\n';
    const withEmpty = web('  replicas: 1\n', `${emptyEffect}      containers: [{name: web, image: nginx}]\n`);
    assert.equal(applyEdits(withEmpty, fixesOf(withEmpty, 'KFS007')[0].edits),
      web('  replicas: 1\n', `${emptyEffect.replace('effect: ""', 'effect: NoExecute')}        tolerationSeconds: 300\n      containers: [{name: web, image: nginx}]\n`));
    const wildcard = web('  replicas: 1\n', '      tolerations: [{operator: Exists}]\n      containers: [{name: web, image: nginx}]\n');
    assert.deepEqual(fixesOf(wildcard, 'KFS007'), []);
    // tolerationSeconds without effect is what the API server rejects.
    const rejected = new Workspace();
    rejected.setDocument('main.yaml', text.replace('operator: Exists\n', 'operator: Exists\n        tolerationSeconds: 60\n'));
    assert.deepEqual(rejected.analyse('main.yaml').findings.filter((f) => f.ruleId === 'KFS092').map((f) => f.message), ['tolerationSeconds only applies to the NoExecute effect, and this toleration has no effect, so the API server rejects it. Add effect: NoExecute.']);
  });

  it('KFS006 raises a short tolerationSeconds in a flow mapping; the title compares eviction by a partition', () => {
    const pod = '      tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 10}]\n      volumes: [{name: cache, emptyDir: {}}]\n      containers: [{name: web, image: nginx}]\n';
    const text = web('  replicas: 2\n', pod);
    const [fix] = fixesOf(text, 'KFS006');
    const edited = applyEdits(text, fix.edits);
    assert.equal(edited, web('  replicas: 2\n', pod.replace('tolerationSeconds: 10', 'tolerationSeconds: 300')));
    assert.match(fix.title, /^Tolerate unreachable for 300s \(if its node is cut off: evicted after ~(4[0-9]|5[0-9]|1m[0-9]+)s → evicted after ~(5m[45][0-9]|6m0[0-9])s\)$/);
    // Both short tolerations: each finding's fix raises both, and its title says so.
    const both = web('  replicas: 2\n', pod.replace('tolerationSeconds: 10}]', 'tolerationSeconds: 10}, {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 10}]'));
    assert.deepEqual(fixesOf(both, 'KFS006').map((f) => f.title.replace(/ \(.*$/, '')), ['Tolerate unreachable and not-ready for 300s', 'Tolerate unreachable and not-ready for 300s']);
    // A not-ready toleration alone: its taint comes from a kubelet reporting NotReady, which the message and the title measure.
    const notReady = web('  replicas: 2\n', pod.replace('node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready'));
    const workspace = new Workspace();
    workspace.setDocument('main.yaml', notReady);
    const finding = workspace.analyse('main.yaml').findings.find((f) => f.ruleId === 'KFS006')!;
    assert.match(finding.message, /^tolerationSeconds 10 is shorter than a runtime restart: a kubelet reporting NotReady \(its container runtime down\) for longer than about \d+s evicts the pod 10s after/);
    assert.match(fixesOf(notReady, 'KFS006')[0].title, /^Tolerate not-ready for 300s \(if its kubelet reports NotReady: evicted after ~\d+s → evicted after ~(5m[3-5][0-9]|6m0[0-9])s\)$/);
  });

  it('KFS008 writes the tolerations the API server adds, as a block list at the pod spec\'s indentation', () => {
    const text = web('  replicas: 2\n');
    const fix = fixesOf(text, 'KFS008')[0];
    const edited = applyEdits(text, fix.edits);
    assert.equal(edited, `${text}      tolerations:
      - key: node.kubernetes.io/unreachable
        operator: Exists
        effect: NoExecute
        tolerationSeconds: 300
      - key: node.kubernetes.io/not-ready
        operator: Exists
        effect: NoExecute
        tolerationSeconds: 300
`);
    assert.deepEqual(valueAt(edited, ['spec', 'template', 'spec', 'tolerations', 1]), { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
    assert.equal(simulatedOutage(edited), simulatedOutage(text), 'the same tolerations: the same outage');
    // Items written flush with their key, however many spaces follow the dash (-   name:): the new list is flush too.
    const wide = web('  replicas: 2\n', '      containers:\n      -   name: web\n          image: nginx\n');
    assert.match(applyEdits(wide, fixesOf(wide, 'KFS008')[0].edits), /\n      tolerations:\n      - key: node\.kubernetes\.io\/unreachable\n        operator: Exists\n/);
    // The same tolerations, the same outage: the title says unchanged rather than "0s → 0s".
    assert.equal(fix.title, `Write the tolerations the API server adds (300s) (outage if a node fails: unchanged, ${simulatedOutage(text)})`);
    assert.equal(simulatedOutage(text), '0s', 'two replicas: one keeps serving');
  });

  it('KFS010 adds topologySpreadConstraints over hostname with the workload\'s selector (not a version label of the template); the title compares packed with spread', () => {
    const text = web('  replicas: 3\n').replace('labels: {app: web}', 'labels: {app: web, version: "1.1.3"}');
    const [fix] = fixesOf(text, 'KFS010');
    const edited = applyEdits(text, fix.edits);
    assert.equal(edited, `${text}      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: kubernetes.io/hostname
        whenUnsatisfiable: ScheduleAnyway
        labelSelector:
          matchLabels:
            app: web
`);
    assert.deepEqual(valueAt(edited, ['spec', 'template', 'spec', 'topologySpreadConstraints']),
      [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } }]);
    const [, before, after] = /^Spread the replicas over nodes \(topologySpreadConstraints on kubernetes\.io\/hostname, maxSkew 1, ScheduleAnyway\) \(outage if a node fails: packed (\S+) → spread (\S+)\)$/.exec(fix.title)!;
    assert.equal(before, simulatedOutage(text, 'worst-placement'));
    assert.equal(after, simulatedOutage(edited, 'spread-placement'));
    assert.match(before, /^(5m5[0-9]|6m0[0-9])s$/);
    assert.equal(after, '0s');
    assert.equal(fix.preferred, true);
    assert.deepEqual(fixesOf(edited, 'KFS010'), [], 'spread now');
  });

  it('KFS010 appends to a flow pod spec and to an empty constraint list', () => {
    const flow = `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}\n`;
    const [fix] = fixesOf(flow, 'KFS010');
    assert.equal(applyEdits(flow, fix.edits), flow.replace('image: nginx}]}', 'image: nginx}], topologySpreadConstraints: [{maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}]}'));
    const empty = flow.replace('spec: {containers', 'spec: {topologySpreadConstraints: [], containers');
    const [emptyFix] = fixesOf(empty, 'KFS010');
    assert.equal(applyEdits(empty, emptyFix.edits), empty.replace('topologySpreadConstraints: []', 'topologySpreadConstraints: [{maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}]'));
  });

  it('KFS020 adds a readinessProbe skeleton to the container', () => {
    const text = web('  replicas: 2\n', '      containers:\n      - name: web\n        image: nginx\n        ports:\n        - containerPort: 8080\n');
    const [fix] = fixesOf(text, 'KFS020');
    assert.equal(applyEdits(text, fix.edits), `${text}        readinessProbe:\n          httpGet:\n            path: /\n            port: 8080\n          periodSeconds: 10\n          failureThreshold: 3\n`);
    assert.equal(fix.title, 'Add a readinessProbe (httpGet / on port 8080) (no traffic until GET / on port 8080 answers; out of the Service after 3 failed checks 10s apart)');
  });

  it('KFS020 checks a port that is not known to speak HTTP with a TCP connection, and offers nothing for UDP only', () => {
    const text = web('  replicas: 2\n', '      containers:\n      - name: redis\n        image: redis:7\n        ports:\n        - containerPort: 6379\n');
    const [fix] = fixesOf(text, 'KFS020');
    assert.equal(applyEdits(text, fix.edits), `${text}        readinessProbe:\n          tcpSocket:\n            port: 6379\n          periodSeconds: 10\n          failureThreshold: 3\n`);
    assert.equal(fix.title, 'Add a readinessProbe (tcpSocket on port 6379) (no traffic until port 6379 accepts connections; out of the Service after 3 failed checks 10s apart)');
    const named = web('  replicas: 2\n', '      containers:\n      - name: api\n        image: api\n        ports:\n        - {name: http-api, containerPort: 9000}\n');
    assert.match(fixesOf(named, 'KFS020')[0].title, /^Add a readinessProbe \(httpGet \/ on port 9000\)/);
    // TLS and webhook ports do not answer a plain GET / (kube-rbac-proxy's https-main, a webhook server): a TCP check.
    for (const port of ['{name: https-main, containerPort: 8443}', '{name: webhook, containerPort: 7000}', '{name: websecure, containerPort: 8080}']) {
      const tls = web('  replicas: 2\n', `      containers:\n      - name: api\n        image: api\n        ports:\n        - ${port}\n`);
      assert.match(fixesOf(tls, 'KFS020')[0].title, /^Add a readinessProbe \(tcpSocket on port \d+\)/, port);
    }
    const dns = web('  replicas: 2\n', '      containers:\n      - name: dns\n        image: coredns\n        ports:\n        - {containerPort: 53, protocol: UDP}\n');
    assert.deepEqual(fixesOf(dns, 'KFS020'), []);
  });

  it('KFS041 sets requests equal to limits inside flow mappings', () => {
    const pod = '      containers: [{name: web, image: nginx, resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: "1", memory: 128Mi}}}]\n';
    const text = web('  replicas: 2\n', pod);
    const [fix] = fixesOf(text, 'KFS041');
    const edited = applyEdits(text, fix.edits);
    assert.equal(edited, web('  replicas: 2\n', pod.replace('requests: {cpu: 100m, memory: 64Mi}', 'requests: {cpu: "1", memory: 128Mi}')));
    assert.deepEqual(fixesOf(edited, 'KFS041'), [], 'Guaranteed now');
    assert.equal(fix.title, 'Set requests equal to limits (Guaranteed QoS: evicted last under node pressure)');
  });

  it('KFS041 says the pods stay Burstable while another container is not Guaranteed', () => {
    const pod = '      containers: [{name: web, image: nginx, resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: "1", memory: 128Mi}}}, {name: sidecar, image: envoy, resources: {limits: {memory: 64Mi}}}]\n';
    const titles = fixesOf(web('  replicas: 2\n', pod), 'KFS041').map((f) => f.title);
    assert.deepEqual(titles, ['Set requests equal to limits (web as Guaranteed; the pods stay Burstable while sidecar is not)']);
  });

  it('KFS043 adds sizeLimit to an empty flow emptyDir', () => {
    const pod = '      volumes: [{name: scratch, emptyDir: {}}]\n      containers: [{name: web, image: nginx}]\n';
    const text = web('  replicas: 2\n', pod);
    const [fix] = fixesOf(text, 'KFS043');
    assert.equal(applyEdits(text, fix.edits), web('  replicas: 2\n', pod.replace('emptyDir: {}', 'emptyDir: {sizeLimit: 1Gi}')));
    assert.equal(fix.title, 'Limit the emptyDir to 1Gi (the kubelet evicts the pod when scratch exceeds 1Gi, before the node\'s disk fills)');
    const [memory] = fixesOf(web('  replicas: 2\n', pod.replace('emptyDir: {}', 'emptyDir: {medium: Memory}')), 'KFS043');
    assert.equal(memory.title, 'Limit the emptyDir to 1Gi (scratch is capped at 1Gi instead of growing into the pod\'s memory)');
    assert.equal(fix.preferred, true);
    // A data directory (a database's, by its name or its mount path): 1Gi could evict the pod as the data grows; not preferred.
    const data = fixesOf(web('  replicas: 2\n', '      volumes: [{name: cache, emptyDir: {}}]\n      containers: [{name: redis, image: redis, volumeMounts: [{name: cache, mountPath: /data}]}]\n'), 'KFS043')[0];
    assert.match(data.title, /; cache looks like a data directory: make the limit larger than what it holds\)$/);
    assert.equal(data.preferred, false);
  });

  it('KFS030 starts the program with exec inside the quoted script', () => {
    const pod = '      containers: [{name: web, image: node, command: [sh, -c, "node server.js 2>&1 > /log"]}]\n';
    const text = web('  replicas: 2\n', pod);
    const [fix] = fixesOf(text, 'KFS030');
    const edited = applyEdits(text, fix.edits);
    assert.equal(edited, web('  replicas: 2\n', pod.replace('"node server.js', '"exec node server.js')));
    assert.equal(fix.title, 'Start the program with exec (SIGTERM reaches the program: it can stop gracefully within terminationGracePeriodSeconds 30s instead of being killed at its end)');
    const [longer] = fixesOf(web('  replicas: 2\n', `      terminationGracePeriodSeconds: 90\n${pod}`), 'KFS030');
    assert.match(longer.title, /within terminationGracePeriodSeconds 90s /);
    assert.deepEqual(fixesOf(edited, 'KFS030'), []);
    assert.deepEqual(fixesOf(web('  replicas: 2\n', pod.replace('node server.js', 'cd /app && node server.js')), 'KFS030'), [], 'no exec fix for a script of several commands');
    assert.equal(fixesOf(web('  replicas: 2\n', pod.replace(' 2>&1 > /log', '')), 'KFS030').length, 0, 'one program alone: no finding, no fix');
  });

  it('disables a rule for the line or the document with a comment, after which the finding is gone', () => {
    const text = `# a comment\n${web('  replicas: 1\n')}`;
    const fixes = suppressionFixesOf(text, 'KFS002');
    const line = fixes.find((f) => f.title === 'Disable KFS002 for this line')!;
    const lineEdited = applyEdits(text, line.edits);
    assert.equal(lineEdited, `# a comment\n${web('  # kfs-disable-next-line KFS002\n  replicas: 1\n')}`);
    assert.deepEqual(fixesOf(lineEdited, 'KFS002'), []);
    const documentFix = fixes.find((f) => f.title === 'Disable KFS002 for this document')!;
    const documentEdited = applyEdits(text, documentFix.edits);
    assert.equal(documentEdited, `# a comment\n# kfs-disable KFS002\n${web('  replicas: 1\n')}`);
    assert.deepEqual(fixesOf(documentEdited, 'KFS002'), []);
    // A document after one ended by ... (no ---): the comment above it is its own, not the one above's.
    const ended = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n...\n${web('  replicas: 1\n')}`;
    const afterEnd = applyEdits(ended, suppressionFixesOf(ended, 'KFS002').find((f) => f.title === 'Disable KFS002 for this document')!.edits);
    assert.deepEqual(fixesOf(afterEnd, 'KFS002'), []);
  });

  it('KFS030 puts exec after a tag, and offers nothing where exec cannot go first (an assignment, a subshell, a builtin)', () => {
    const pod = (script: string) => `      containers: [{name: web, image: node, command: [sh, -c, ${script}]}]\n`;
    const tagged = web('  replicas: 2\n', pod('!!str node server.js > /log'));
    assert.equal(applyEdits(tagged, fixesOf(tagged, 'KFS030')[0].edits), web('  replicas: 2\n', pod('!!str exec node server.js > /log')));
    for (const script of ['"PORT=8080 node server.js"', '"(node server.js)"', '"cd /app"', '"export X"']) {
      assert.deepEqual(fixesOf(web('  replicas: 2\n', pod(script)), 'KFS030'), [], script);
    }
  });

  it('a value written after a key with nothing after its colon gets a space (replicas:, sizeLimit:)', () => {
    const text = web('  replicas:\n');
    assert.equal(applyEdits(text, fixesOf(text, 'KFS002')[0].edits), web('  replicas: 2\n'));
    const pod = (limit: string) => `      volumes:\n      - name: scratch\n        emptyDir:\n          sizeLimit:${limit}\n      containers: [{name: web, image: nginx}]\n`;
    const empty = web('  replicas: 2\n', pod(''));
    const edited = applyEdits(empty, fixesOf(empty, 'KFS043')[0].edits);
    assert.equal(edited, web('  replicas: 2\n', pod(' 1Gi')));
    assert.deepEqual(valueAt(edited, ['spec', 'template', 'spec', 'volumes', 0, 'emptyDir']), { sizeLimit: '1Gi' });
  });

  it('adds an entry beside explicit keys (? containers) at the column of their ?, not of the key after it', () => {
    const pod = '      ? containers\n      : - name: web\n          image: nginx\n';
    const text = web('  replicas: 2\n', pod);
    const edited = applyEdits(text, fixesOf(text, 'KFS008')[0].edits);
    assert.match(edited, /\n {6}\? containers\n {6}: - name: web\n {10}image: nginx\n {6}tolerations:\n {6}- key: node\.kubernetes\.io\/unreachable\n/);
    assert.equal((valueAt(edited, ['spec', 'template', 'spec', 'tolerations']) as unknown[]).length, 2);
  });

  it('an empty list item is an error at that item, and fixes of the items after it edit those items', () => {
    const pod = (first: string) => `      volumes:\n      -${first}\n      - name: d\n        emptyDir: {}\n      containers: [{name: web, image: nginx}]\n`;
    const empty = new Workspace();
    empty.setDocument('main.yaml', web('  replicas: 2\n', pod('')));
    const [error] = empty.analyse('main.yaml').findings.filter((f) => f.ruleId === 'KFS092');
    assert.deepEqual([error.severity, error.range.start.line, error.message], ['error', 14, 'spec.template.spec.volumes[0] is empty: the API server reads it as an item with no field set and rejects it. Remove the empty item.']);
    // An empty node selector term is accepted (it matches no node): no error, a warning that it matches nothing.
    const terms = new Workspace();
    terms.setDocument('main.yaml', web('  replicas: 2\n', '      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n            -\n            - matchExpressions: [{key: disk, operator: In, values: [ssd]}]\n      containers: [{name: web, image: nginx}]\n'));
    const termFindings = terms.analyse('main.yaml').findings.filter((f) => f.ruleId === 'KFS092');
    assert.deepEqual(termFindings.map((f) => [f.severity, f.range.start.line, f.message]), [['warning', 17, 'nodeSelectorTerms[0] is empty: a term with no requirement matches no node. Remove it, or write its matchExpressions.']]);
    // An item that is not empty but is not a volume either: the next one is still the second.
    const text = web('  replicas: 2\n', pod(' scratch'));
    const edited = applyEdits(text, fixesOf(text, 'KFS043')[0].edits);
    assert.equal(edited, web('  replicas: 2\n', pod(' scratch').replace('emptyDir: {}', 'emptyDir: {sizeLimit: 1Gi}')));
  });

  it('adds to a flow collection whose lines end in comments: the comma before a comment counts, a comma inside one does not', () => {
    const pod = (volume: string) => `      volumes:\n      - name: d\n        emptyDir: {\n${volume}}\n      containers: [{name: web, image: nginx}]\n`;
    for (const [written, added] of [['          medium: "",  # disk, not memory\n          ', ' sizeLimit: 1Gi'], ['          medium: ""  # disk, not memory,\n          ', ', sizeLimit: 1Gi'], ['          medium: "#x,"\n          ', ', sizeLimit: 1Gi']]) {
      const text = web('  replicas: 2\n', pod(written));
      const edited = applyEdits(text, fixesOf(text, 'KFS043')[0].edits);
      assert.equal(edited, web('  replicas: 2\n', pod(`${written}${added}`)), written);
      assert.deepEqual(Object.keys(valueAt(edited, ['spec', 'template', 'spec', 'volumes', 0, 'emptyDir']) as object), ['medium', 'sizeLimit'], written);
    }
  });

  it('KFS043 on an emptyDir written with nothing after the colon writes a valid value, comment kept', () => {
    for (const [written, edited] of [['emptyDir:\n', 'emptyDir: {sizeLimit: 1Gi}\n'], ['emptyDir: # scratch\n', 'emptyDir: {sizeLimit: 1Gi} # scratch\n']]) {
      const pod = (emptyDir: string) => `      volumes:\n      - name: scratch\n        ${emptyDir}      containers: [{name: web, image: nginx}]\n`;
      const text = web('  replicas: 2\n', pod(written));
      const result = applyEdits(text, fixesOf(text, 'KFS043')[0].edits);
      assert.equal(result, web('  replicas: 2\n', pod(edited)));
      assert.deepEqual(valueAt(result, ['spec', 'template', 'spec', 'volumes', 0, 'emptyDir']), { sizeLimit: '1Gi' });
    }
  });

  it('adds to a flow mapping that ends with a comma without a second comma', () => {
    const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}},\n  }\n';
    const edited = applyEdits(text, fixesOf(text, 'KFS002')[0].edits);
    assert.deepEqual(readManifestText(edited).parsed.problems, []);
    assert.equal(valueAt(edited, ['spec', 'replicas']), 2);
  });

  it('KFS041 writes the limits as read: an alias or a tag resolved, not copied', () => {
    const pod = '      containers: [{name: web, image: nginx, resources: {requests: {cpu: 100m}, limits: {cpu: &cpu 500m, memory: !!str 1Gi}}}]\n      x-cpu: *cpu\n';
    const text = web('  replicas: 2\n', pod);
    const [fix] = fixesOf(text, 'KFS041');
    const edited = applyEdits(text, fix.edits);
    assert.deepEqual(valueAt(edited, ['spec', 'template', 'spec', 'containers', 0, 'resources', 'requests']), { cpu: '500m', memory: '1Gi' });
    assert.deepEqual(readManifestText(edited).problems, []);
  });

  it('offers no edit of a node an alias reads: the change would show there too', () => {
    const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: &n 1\n  selector: {matchLabels: {app: web}}\n  template: {metadata: {labels: {app: web, copies: *n}}, spec: {containers: [{name: web, image: nginx}]}}\n';
    assert.deepEqual(fixesOf(text, 'KFS002'), []);
  });

  it('KFS007 adds the effect and the seconds as entries of a block toleration, its comments kept', () => {
    const tolerations = '      tolerations:\n      - key: node.kubernetes.io/unreachable  # the unreachable taint\n        # forever, on purpose\n        operator: Exists\n';
    const text = web('  replicas: 1\n', `${tolerations}      containers: [{name: web, image: nginx}]\n`);
    const edited = applyEdits(text, fixesOf(text, 'KFS007')[0].edits);
    assert.equal(edited, web('  replicas: 1\n', `${tolerations}        effect: NoExecute\n        tolerationSeconds: 300\n      containers: [{name: web, image: nginx}]\n`));
  });

  it('quotes label values YAML 1.1 reads as numbers (hex, underscores, base 60) when it copies them', () => {
    const text = web('  replicas: 3\n').replaceAll('abels: {app: web}', 'abels: {app: web, rev: "0x1F", count: "1_000", t: "12:30"}');
    const edited = applyEdits(text, fixesOf(text, 'KFS010')[0].edits);
    assert.deepEqual(valueAt(edited, ['spec', 'template', 'spec', 'topologySpreadConstraints', 0, 'labelSelector', 'matchLabels']), { app: 'web', rev: '0x1F', count: '1_000', t: '12:30' });
  });

  it('inserts after the kept trailing lines of a |+ block scalar, which belong to its value', () => {
    const pod = '      containers:\n      - name: web\n        image: nginx\n        ports: [{containerPort: 8080}]\n        args:\n        - |+\n          line one\n\n';
    const text = web('  replicas: 2\n', pod);
    const edited = applyEdits(text, fixesOf(text, 'KFS020')[0].edits);
    assert.equal(valueAt(edited, ['spec', 'template', 'spec', 'containers', 0, 'args', 0]), 'line one\n\n');
    assert.ok(valueAt(edited, ['spec', 'template', 'spec', 'containers', 0, 'readinessProbe']));
  });

  it('the effect in a fix\'s title is that of its own document when two documents share kind and name', () => {
    const text = `${web('  replicas: 3\n')}---\n${web('  replicas: 1\n')}`;
    const workspace = new Workspace();
    workspace.setDocument('main.yaml', text);
    const second = workspace.fixes('main.yaml').find((f) => f.finding.ruleId === 'KFS002' && !f.fix.title.startsWith('Disable '))!;
    const [, before] = /\(outage if a node fails: (\S+) → (\S+)\)$/.exec(second.fix.title)!;
    assert.equal(before, simulatedOutage(web('  replicas: 1\n')));
  });

  it('offers no edit through an alias: the change would land on the anchor', () => {
    const text = `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nx-shared: &spec\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}\nspec: *spec\n`;
    assert.deepEqual(fixesOf(text, 'KFS002'), []);
    assert.equal(suppressionFixesOf(text, 'KFS002').length, 2, 'disabling still works');
  });
});

describe('suppression', () => {
  const findings = (text: string) => {
    const workspace = new Workspace();
    workspace.setDocument('main.yaml', text);
    return workspace.analyse('main.yaml').findings.map((f) => f.ruleId);
  };
  const single = web('  replicas: 1\n');

  it('kfs-disable-next-line silences only that line', () => {
    assert.ok(findings(single).includes('KFS002'));
    const text = single.replace('  replicas: 1\n', '  # kfs-disable-next-line KFS002, KFS052\n  replicas: 1\n');
    assert.ok(!findings(text).includes('KFS002'));
    assert.ok(findings(text).includes('KFS008'), 'other rules still run');
  });

  it('a file that could not be read is reported whatever a comment says, and no fix offers to silence it (KFS090, KFS093)', () => {
    const broken = single.replace('  replicas: 1\n', '  replicas: 1\n  replicas: 2\n');
    assert.ok(findings(broken).includes('KFS090'));
    assert.deepEqual(suppressionFixesOf(broken, 'KFS090'), []);
    assert.ok(findings(broken.replace('  replicas: 2\n', '  # kfs-disable-next-line KFS090\n  replicas: 2\n')).includes('KFS090'));
    assert.ok(findings(`# kfs-disable KFS090\n${broken}`).includes('KFS090'));
    // A KFS093 about one workload (more pods than findings are simulated for) can be silenced.
    const big = single.replace('  replicas: 1\n', '  replicas: 5000\n');
    assert.ok(findings(big).includes('KFS093'));
    assert.equal(suppressionFixesOf(big, 'KFS093').length, 2);
    assert.ok(!findings(big.replace('  replicas: 5000\n', '  # kfs-disable-next-line KFS093\n  replicas: 5000\n')).includes('KFS093'));
  });

  it('kfs-disable silences the whole YAML document it is in, not the next one', () => {
    const second = single.replace('name: web', 'name: web2');
    const kfs002 = (text: string) => findings(text).filter((id) => id === 'KFS002').length;
    assert.equal(kfs002(`# kfs-disable KFS002\n${single}---\n${second}`), 1);
    // At the end of the first document, before the ---: that document, all of it.
    const atEnd = `${single}# kfs-disable KFS002\n---\n${second}`;
    assert.equal(kfs002(atEnd), 1);
    assert.equal(kfs002(atEnd.replace('name: web2', 'name: web2\n  annotations: {kube-failure-sim/ignore: KFS002}')), 0);
    // After the ---: the second one.
    assert.equal(kfs002(`${single}---\n# kfs-disable KFS002\n${second}`.replace('name: web\n', 'name: web\n  annotations: {kube-failure-sim/ignore: KFS002}\n')), 0);
  });

  it('the annotation kube-failure-sim/ignore silences its object', () => {
    const text = single.replace('  namespace: shop\n', '  namespace: shop\n  annotations:\n    kube-failure-sim/ignore: "KFS002,KFS008"\n');
    const ids = findings(text);
    assert.ok(!ids.includes('KFS002') && !ids.includes('KFS008'));
    assert.ok(ids.includes('KFS040'));
  });
});

/**
 * Every quick fix the analysis offers on a file: the edited text parses with no new error and as
 * many documents, and has fewer findings of that rule on that object (others may remain, such as
 * the same rule on another container).
 */
function checkEveryFix(file: string): number {
  const text = fs.readFileSync(file, 'utf8');
  const before = new Workspace();
  before.setDocument('f.yaml', text);
  const parsed = before.read('f.yaml').parsed;
  const errors = (p: typeof parsed) => p.problems.filter((problem) => problem.severity === 'error').length;
  const findings = before.analyse('f.yaml').findings;
  const sameAs = (finding: Finding) => (f: Finding) => f.ruleId === finding.ruleId && JSON.stringify(f.object) === JSON.stringify(finding.object);
  const fixes = before.fixes('f.yaml');
  for (const { finding, fix } of fixes) {
    const after = new Workspace();
    after.setDocument('f.yaml', applyEdits(text, fix.edits));
    const edited = after.read('f.yaml').parsed;
    const where = `${file}: ${finding.ruleId} "${fix.title}"`;
    assert.ok(errors(edited) <= errors(parsed), `${where} adds an error`);
    assert.equal(edited.documents.length, parsed.documents.length, `${where} changes the documents`);
    assert.ok(after.analyse('f.yaml').findings.filter(sameAs(finding)).length < findings.filter(sameAs(finding)).length, `${where} leaves the finding`);
  }
  return fixes.length;
}

describe('every quick fix on the examples', () => {
  it('parses, keeps the documents and removes its finding', () => {
    const count = yamlFiles(path.join(REPO_ROOT, 'examples')).reduce((n, file) => n + checkEveryFix(file), 0);
    assert.ok(count > 50, `${count} fixes`);
  });
});

describeWithCorpus('every quick fix on ../shared/corpus', (files) => {
  it('parses, keeps the documents and removes its finding (files up to 300 KB)', () => {
    const count = files.filter((f) => fs.statSync(f).size <= 300_000).reduce((n, file) => n + checkEveryFix(file), 0);
    assert.ok(count > 1000, `${count} fixes`);
  });
});
