/**
 * One error type for input the workspace cannot use: which choice it concerns, the value as
 * given, what is wrong, and where it is written when it comes from a file. Messages speak of
 * the input; each front end words the choice its own way (a CLI flag, a setting, a pick).
 */
import type { SourceLocation } from '../manifest/range';

export type InputChoice =
  | 'failure' | 'target' | 'recovery' | 'force-delete' | 'delete' | 'duration' | 'seed' | 'runs' | 'cluster'
  | 'version' | 'profile' | 'setting' | 'workloads';

export class InputError extends Error {
  constructor(
    readonly choice: InputChoice,
    /** The value as given ("node/x"); undefined when the problem is the input as a whole. */
    readonly value: string | undefined,
    readonly problem: string,
    readonly at?: SourceLocation,
    /** The entry of a choice made of several (a setting's knob), for a front end that points at it. */
    readonly item?: string,
  ) {
    super(value === undefined ? problem : `${choice} ${value}: ${problem}`);
  }
}
