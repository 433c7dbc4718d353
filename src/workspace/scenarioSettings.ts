/**
 * A scenario file's version, preset and knobs checked as a run would check them, all at once: the
 * editor marks each where the file writes it while it is edited (a run stops at the first).
 */
import type { Path } from '../manifest/path';
import type { Range } from '../manifest/range';
import { scenarioFieldOf, scenarioRun, type ScenarioFile, type ScenarioProblem } from './scenarioFile';
import { Workspace } from './workspace';

/** `source`: the file as the user sees it, which the messages name as the settings' source. */
export function scenarioSettingsProblems(scenario: ScenarioFile, locate: (path: Path) => Range, source: string): ScenarioProblem[] {
  const timing = scenarioRun(scenario, source).choices.timing ?? {};
  // The file's settings as a front end's, in a workspace of no document: only they can be wrong.
  const settings = { version: timing.version, profile: timing.profile ?? undefined, overrides: timing.overrides ?? [] };
  return new Workspace(settings).settingsProblems().map((error) => ({ message: error.message, range: locate(scenarioFieldOf(scenario, error)) }));
}
