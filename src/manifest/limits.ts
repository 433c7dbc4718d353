/**
 * Every bound on input, in one place (README.md "Limits" lists them). Manifests come from
 * untrusted repositories: past a bound, the input gets a KFS093 finding at the position that
 * exceeds it, never a crash, a hang or an exhausted heap.
 */

/** names.SimpleNameGenerator cuts a generateName prefix to 58 characters, so that a 5-letter suffix fits a 63-character name. */
export const MAX_GENERATE_NAME_PREFIX = 58;

/** Bytes of one file that the CLI reads. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Characters of one file that are parsed; documents beyond are not analysed. */
export const MAX_FILE_CHARS = 32 * 1024 * 1024;
/** YAML documents of one file that are analysed. */
export const MAX_DOCUMENTS = 10_000;
/** Nesting of maps and lists (js-yaml's maxDepth; go-yaml allows more, but no manifest nests this deep). */
export const MAX_DEPTH = 100;
/** Aliases of one document that are expanded (js-yaml's maxAliases). */
export const MAX_ALIASES_PER_DOCUMENT = 1000;
/**
 * Expanded size: go-yaml's "excessive aliasing" guard, which the API server applies, bounds
 * what aliases may expand to (aliasExpansion.ts has its ratio table).
 */
export const ALIAS_RATIO_RANGE = { low: 400_000, high: 4_000_000 } as const;

/** The largest value of an int32 field (replicas, parallelism): the API server rejects larger ones. */
export const MAX_INT32 = 2_147_483_647;
/** int64's largest value, as text: past 2^53 a number is not exact. */
export const MAX_INT64_TEXT = '9223372036854775807';

/**
 * An integer as strconv.ParseInt with base 0 reads it (pflag's integer flags, and go-yaml once it has
 * dropped underscores): an optional sign, then hexadecimal 0x10, octal 0o20 or 020, binary 0b10000
 * or decimal, underscores between digits; exact past 2^53.
 */
export function parseGoInt(text: string): bigint | undefined {
  const match = /^([+-]?)(0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|0(?:_?[0-7])+|[1-9](?:_?[0-9])*|0)$/.exec(text);
  if (!match) return undefined;
  const digits = match[2].replace(/_/g, '');
  // A leading 0 alone means octal, which BigInt reads as decimal.
  const value = BigInt(/^0[0-7]/.test(digits) ? `0o${digits.slice(1)}` : digits);
  return match[1] === '-' ? -value : value;
}

/** An integer flag's value if it is a whole number from 0 to `max` (a Go type's largest value, as text); else undefined. */
export function flagIntUpTo(text: string, max: string): bigint | undefined {
  return flagIntWithin(text, '0', max);
}

/** An integer flag's value if it is a whole number from `min` to `max` (as text); else undefined. */
export function flagIntWithin(text: string, min: string, max: string): bigint | undefined {
  const value = parseGoInt(text);
  return value !== undefined && value >= BigInt(min) && value <= BigInt(max) ? value : undefined;
}

/** int32's smallest value, and int64's as text (past 2^53 a number is not exact). */
export const MIN_INT32 = -2_147_483_648;
export const MIN_INT64_TEXT = '-9223372036854775808';

/** A decimal number as Go's ParseFloat reads a flag (no hexadecimal, no spaces, no Infinity). */
export function isDecimalNumber(text: string): boolean {
  return /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(text) && Number.isFinite(Number(text));
}

/**
 * Kubernetes' scalability envelope (kubernetes.io/docs/setup/best-practices/cluster-large):
 * what one cluster runs at most. A replica count or a pod total beyond it is not simulated.
 */
export const CLUSTER_ENVELOPE = { maxPods: 150_000, maxNodes: 5_000, maxPodsPerNode: 110 } as const;

/** Pods of one workload that the editor and `check` simulate for its numbers; larger ones are left to `simulate`. */
export const MAX_ANALYSED_PODS_PER_WORKLOAD = 2_000;

/** Workloads of one file simulated for findings (in file order); `simulate` runs the others. */
export const MAX_SIMULATED_WORKLOADS_PER_FILE = 300;
/**
 * Pods of one file simulated for findings, in file order: 300 workloads of 2,000 pods each would
 * take minutes to check (about 0.15 ms a pod); `simulate` runs the others.
 */
export const MAX_ANALYSED_PODS_PER_FILE = 10_000;

/** Longest simulated time. */
export const MAX_DURATION_MS = 7 * 24 * 3600_000;
/** Pods × simulated hours of one run: the 150,000-pod hour of the benchmark, twice over. */
export const MAX_POD_HOURS = 2 * CLUSTER_ENVELOPE.maxPods;
/**
 * Events of one run's trace: the benchmark's 150,000-pod hour writes about 190,000. Past this a
 * run is refused rather than filling memory (a week of a probe that fails every second on
 * hundreds of pods).
 */
export const MAX_TRACE_EVENTS = 1_000_000;
/** Runs of one `simulate --runs`: statistics are kept as runs finish, so this bounds time, not memory. */
export const MAX_RUNS = 1000;

/** Nodes `load --nodes` computes heartbeat writes for (arithmetic, not a simulation: far past the envelope is still cheap). */
export const MAX_LOAD_NODES = 1_000_000;

/** Files of a workspace folder the editor reads in the background, and the largest it reads (open files have no bound but MAX_FILE_CHARS). */
export const MAX_INDEXED_FILES = 2000;
export const MAX_INDEXED_BYTES = 2 * 1024 * 1024;
