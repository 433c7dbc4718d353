/**
 * Hostile inputs (issue: bad input never crashes, hangs or exhausts memory) and a way to run the
 * CLI on them in a child process that reports its peak memory. The table test asserts on them;
 * `npm run bench` prints each case's exit code, time and peak memory.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

/** Each run of a hostile input: an exit code 0–2, a finding or a one-line message, within these bounds (issue: bad input never crashes, hangs or exhausts memory). */
export const TIME_LIMIT_MS = 5000;
export const MEMORY_LIMIT_KIB = 512 * 1024;
const MEASURED_CLI = path.join(__dirname, 'measuredCli.js');

export interface Run {
  code: number | null;
  stdout: string;
  /** stderr without the harness's last line. */
  stderr: string;
  ms: number;
  maxRssKiB: number;
}

export function runCli(cwd: string, args: string[], nodeOptions: string[] = []): Run {
  const started = Date.now();
  const child = spawnSync(process.execPath, [...nodeOptions, MEASURED_CLI, ...args], { cwd, encoding: 'utf8', timeout: TIME_LIMIT_MS * 3, maxBuffer: 256 * 1024 * 1024 });
  const ms = Date.now() - started;
  const match = /\nmaxRSS=(\d+)\n$/.exec(child.stderr ?? '');
  return { code: child.status, stdout: child.stdout ?? '', stderr: (child.stderr ?? '').replace(/\nmaxRSS=\d+\n$/, ''), ms, maxRssKiB: match ? Number(match[1]) : Infinity };
}


/** A deterministic stream of bytes (xorshift), for "random" input that is the same on every run. */
export function pseudoRandomBytes(length: number, seed = 0x9e3779b9): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

const statefulSet = (replicas: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: ${replicas}
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: c, image: x}]
`;

const aliasBomb = (() => {
  const levels = ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: lol}', 'data:', '  l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 10; i++) levels.push(`  l${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(',')}]`);
  return `${levels.join('\n')}\n`;
})();

const pods = (count: number) => Array.from({ length: count }, (_, i) => `apiVersion: v1\nkind: Pod\nmetadata: {name: p${i}}\nspec:\n  containers: [{name: c, image: x}]\n`).join('---\n');

export const nodes = (count: number) => Array.from({ length: count }, (_, i) => `apiVersion: v1
kind: Node
metadata:
  name: node-${String(i).padStart(4, '0')}
  labels: {topology.kubernetes.io/zone: zone-${'abc'[i % 3]}, kubernetes.io/hostname: node-${String(i).padStart(4, '0')}}
status:
  allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
`).join('---\n');

export const deployments = (count: number) => Array.from({ length: count }, (_, i) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: app-${i}}
spec:
  replicas: 1
  selector: {matchLabels: {app: app-${i}}}
  template:
    metadata: {labels: {app: app-${i}}}
    spec:
      containers: [{name: c, image: x}]
`).join('---\n');

export interface HostileCase {
  name: string;
  file: string | Buffer;
  /** Expected `check` exit code and a line of its output. */
  check: { code: number; output: RegExp };
  /** Expected `simulate` exit code, a line of its output (stdout or stderr), and what must not be in it. */
  simulate: { code: number; output: RegExp; absent?: RegExp };
}

export const CASES: HostileCase[] = [
  {
    name: 'replicas: 1000000',
    file: statefulSet('1000000'),
    check: { code: 0, output: /:5:13 warning KFS093 spec\.replicas is 1,000,000: more pods than one Kubernetes cluster runs \(150,000 at most/ },
    simulate: { code: 2, output: /:5:13: StatefulSet\/db asks for 1,000,000 pods: more than one Kubernetes cluster runs \(150,000 at most\); nothing was simulated\./ },
  },
  {
    name: 'replicas: 99999999999 (beyond int32)',
    file: statefulSet('99999999999'),
    check: { code: 1, output: /:5:13 error KFS092 spec\.replicas is 99999999999; it must be ≤ 2147483647\./ },
    simulate: { code: 1, output: /the API server would reject these objects/ },
  },
  {
    name: 'replicas: -5',
    file: statefulSet('-5'),
    check: { code: 1, output: /:5:13 error KFS092 spec\.replicas is -5; it must be ≥ 0\./ },
    simulate: { code: 1, output: /:5:13 error KFS092 spec\.replicas is -5/ },
  },
  {
    name: 'tolerationSeconds: 1e309 (out of range)',
    file: statefulSet('2').replace('      containers:', '      tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 1e309}]\n      containers:'),
    check: { code: 1, output: /error KFS092 spec\.template\.spec\.tolerations\[0\]\.tolerationSeconds must be a whole number; it is the string "1e309"/ },
    simulate: { code: 1, output: /the API server would reject these objects/ },
  },
  {
    name: 'an alias bomb (billion laughs)',
    file: aliasBomb,
    check: { code: 1, output: /:\d+:\d+ error KFS093 Document not analysed: kubectl and the API server reject it \(go-yaml: document contains excessive aliasing/ },
    simulate: { code: 2, output: /no workload/ },
  },
  {
    name: '200 KB of random bytes',
    file: pseudoRandomBytes(200 * 1024),
    check: { code: 1, output: /:1:\d+ error KFS090 Not UTF-8 text: byte 0x[0-9A-F]{2} at offset \d+ is not valid UTF-8/ },
    simulate: { code: 2, output: /Not UTF-8 text/ },
  },
  {
    name: 'invalid UTF-8 in a name (Latin-1 é)',
    file: Buffer.concat([Buffer.from('apiVersion: v1\nkind: Pod\nmetadata:\n  name: caf'), Buffer.from([0xe9]), Buffer.from('\nspec:\n  containers: [{name: c, image: x}]\n')]),
    check: { code: 1, output: /:4:12 error KFS090 Not UTF-8 text: byte 0xE9 at offset 46 is not valid UTF-8/ },
    simulate: { code: 2, output: /:4:12 Not UTF-8 text/ },
  },
  {
    name: 'NUL bytes',
    file: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\u0000q\n',
    check: { code: 1, output: /:4:10 error KFS090 YAML syntax error: null byte is not allowed in input/ },
    simulate: { code: 2, output: /null byte/ },
  },
  {
    name: '10,000-deep nesting',
    file: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`,
    check: { code: 0, output: /:4:\d+ info KFS093 Document not analysed: it nests deeper than 100 levels/ },
    simulate: { code: 2, output: /no workload/ },
  },
  {
    name: 'a 10 MB scalar',
    file: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {big: "${'a'.repeat(10_000_000)}"}\n`,
    check: { code: 0, output: /1 file checked: 0 errors, 0 warnings, 0 info/ },
    simulate: { code: 2, output: /no workload/ },
  },
  {
    name: '50,000 documents',
    file: pods(50_000),
    check: { code: 0, output: /:1:1 info KFS093 File has more than 10,000 documents; only the first 10,000 were analysed\./ },
    simulate: { code: 0, output: /Pod\/p9999\b/, absent: /Pod\/p10000\b/ },
  },
  {
    name: 'mixed line endings',
    file: 'apiVersion: v1\r\nkind: Pod\nmetadata:\r  name: p\r\nspec:\n  containers: [{name: c, image: x}]\n',
    check: { code: 0, output: /:2:7 warning KFS003 / },
    simulate: { code: 0, output: /Pod\/p / },
  },
  {
    name: 'a byte-order mark and CRLF',
    file: '\ufeffapiVersion: v1\r\nkind: Pod\r\nmetadata:\r\n  name: p\r\nspec:\r\n  containers: [{name: c, image: x}]\r\n',
    check: { code: 0, output: /:2:7 warning KFS003 / },
    simulate: { code: 0, output: /Pod\/p / },
  },
  {
    name: 'a manifest that is a JSON array',
    file: '[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"x"}]}}]\n',
    check: { code: 1, output: /:1:1 error KFS092 This document is a list of Kubernetes objects/ },
    simulate: { code: 1, output: /KFS092 This document is a list/ },
  },
  {
    name: 'cpu: 1e308 (the API server caps quantities at 2^63-1)',
    file: statefulSet('1').replace('containers: [{name: c, image: x}]', 'containers: [{name: c, image: x, resources: {requests: {cpu: 1e308}}}]'),
    check: { code: 0, output: /1 file checked: 0 errors, / },
    simulate: { code: 2, output: /No pod runs before the failure \(db-0: 0\/6 nodes are available: 6 Insufficient cpu\./ },
  },
  {
    name: 'node-monitor-grace-period=100000h in a controller-manager manifest',
    file: `${statefulSet('1')}---\napiVersion: v1\nkind: Pod\nmetadata: {name: kube-controller-manager, namespace: kube-system}\nspec:\n  containers:\n  - name: kube-controller-manager\n    image: registry.k8s.io/kube-controller-manager:v1.29.7\n    command: [kube-controller-manager, --node-monitor-grace-period=100000h]\n`,
    check: { code: 0, output: /1 file checked: 0 errors, / },
    simulate: { code: 0, output: /still shows Ready at the end/ },
  },
  {
    name: 'a YAML that is a bare scalar',
    file: 'hello\n',
    check: { code: 0, output: /1 file checked: 0 errors, 0 warnings, 0 info/ },
    simulate: { code: 2, output: /no workload/ },
  },
];

