/**
 * A deletion (--delete, --force-delete) that found nothing to delete at its time: the simulator
 * records it as an event; the report says it where the run is described, since among thousands of
 * lines a misspelt pod name would pass unseen.
 */
import { deletionTarget } from '../manifest/deletionTarget';
import { describeSuggestions } from '../manifest/suggest';
import type { SimulationResult } from '../sim/simulate';
import { formatDuration } from './format';

export function skippedDeletionNotes(result: Pick<SimulationResult, 'events' | 'states'>): string[] {
  return result.events.filter((e) => e.reason === 'ForceDeleteSkipped' || e.reason === 'DeleteSkipped').map((e) => {
    const flag = e.reason === 'ForceDeleteSkipped' ? '--force-delete' : '--delete';
    const { kind } = deletionTarget(e.object.name);
    // node/NAME, zone/NAME: every pod there; Kind/name: the workload's pods on the nodes still down then.
    if (kind === 'node' || kind === 'zone') return `${flag} ${e.object.name} at ${formatDuration(e.t)}: no pod is on that ${kind} then, so nothing was deleted.`;
    if (kind === 'workload') return `${flag} ${e.object.name} at ${formatDuration(e.t)}: no pod of it is on a node still down then, so nothing was deleted.`;
    const pods = new Set(result.states.filter((st) => st.object.kind === 'Pod' && st.from <= e.t && (st.to === null || st.to > e.t)).map((st) => st.object.name));
    const suggestion = describeSuggestions(e.object.name, pods, 'pods then', 3);
    return `${flag} ${e.object.name} at ${formatDuration(e.t)}: no pod of that name exists then, so nothing was deleted${suggestion ? `; ${suggestion}` : ''}.`;
  });
}
