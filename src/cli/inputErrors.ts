/** The workspace's input errors in the CLI's words: the flag that was given, or the file:line:col where the value is written. */
import type { InputChoice, InputError } from '../workspace/inputError';

const FLAGS: Record<InputChoice, string> = {
  failure: '--failure', target: '--target', recovery: '--recover-after', 'force-delete': '--force-delete', delete: '--delete', duration: '--duration',
  seed: '--seed', runs: '--runs', cluster: '--cluster', version: '--k8s-version', profile: '--profile', setting: '--set', workloads: 'input',
};

export function describeInputError(error: InputError): string {
  // At a place in the cluster file, the file need not be named again.
  if (error.at) return `${error.at.uri}:${error.at.range.start.line + 1}:${error.at.range.start.character + 1}: ${error.choice === 'cluster' ? error.problem : error.message}`;
  return error.value === undefined ? error.problem : `${FLAGS[error.choice]} ${error.value}: ${error.problem}`;
}
