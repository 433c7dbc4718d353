/**
 * One error type for input the workspace cannot use: which choice it concerns, the value as
 * given, what is wrong, and where it is written when it comes from a file. Messages speak of
 * the input; each front end words the choice its own way (a CLI flag, a setting, a pick).
 */
import type { Finding } from '../analysis/finding';
import type { SourceLocation } from '../manifest/range';

export type InputChoice =
  | 'failure' | 'target' | 'recovery' | 'intervention' | 'duration' | 'seed' | 'runs' | 'cluster'
  | 'version' | 'profile' | 'setting' | 'workloads';

export class InputError extends Error {
  constructor(
    readonly choice: InputChoice,
    /** The value as given ("node/x"); undefined when the problem is the input as a whole. */
    readonly value: string | undefined,
    readonly problem: string,
    readonly at?: SourceLocation,
  ) {
    super(value === undefined ? problem : `${choice} ${value}: ${problem}`);
  }
}

/** Objects the API server would refuse to store: nothing is simulated, whichever front end asks. */
export class RejectedInput extends InputError {
  constructor(readonly rejections: readonly { uri: string; finding: Finding }[]) {
    const [first] = rejections;
    const more = rejections.length > 1 ? ` (and ${rejections.length - 1} more)` : '';
    super('workloads', undefined, `The API server would reject the input, so nothing was simulated: ${first.finding.message}${more}`, { uri: first.uri, range: first.finding.range });
  }
}
