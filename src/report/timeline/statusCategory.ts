/**
 * kubectl STATUS strings grouped into the few kinds a pod bar is coloured by. The webview maps
 * each kind to a `--vscode-*` colour; the legend and the tests read the same table.
 */
export type StatusCategory = 'ready' | 'unready' | 'pending' | 'creating' | 'terminating' | 'unknown' | 'failed' | 'succeeded';

export const STATUS_CATEGORIES: readonly StatusCategory[] = ['ready', 'unready', 'pending', 'creating', 'terminating', 'unknown', 'failed', 'succeeded'];

export const CATEGORY_LABELS: Readonly<Record<StatusCategory, string>> = {
  ready: 'Running, ready',
  unready: 'Running, not ready',
  pending: 'Pending',
  creating: 'ContainerCreating',
  terminating: 'Terminating',
  unknown: 'Unknown',
  failed: 'Failed / Error',
  succeeded: 'Completed',
};

/** READY "x/y" with x < y (or "0/0") means some container is not ready. */
function allReady(ready: string | undefined): boolean {
  const match = /^(\d+)\/(\d+)$/.exec(ready ?? '');
  return match !== null && match[1] === match[2] && match[2] !== '0';
}

export function podStatusCategory(status: string, ready: string | undefined): StatusCategory {
  switch (status) {
    case 'Running':
      return allReady(ready) ? 'ready' : 'unready';
    case 'Pending':
      return 'pending';
    case 'ContainerCreating':
    case 'PodInitializing':
      return 'creating';
    case 'Terminating':
      return 'terminating';
    case 'Unknown':
    case 'NodeLost':
      return 'unknown';
    case 'Succeeded':
    case 'Completed':
      return 'succeeded';
    default:
      // Failed, Error, CrashLoopBackOff, ContainerStatusUnknown, Evicted, ... : not serving, needs a look.
      return /^Init:/.test(status) ? 'creating' : 'failed';
  }
}
