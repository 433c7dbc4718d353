/** package.json's commands, menus and walkthrough against the code that registers them. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Workspace } from '../../src/workspace/workspace';
import { REPO_ROOT } from '../support/shared';
import { TIMELINE_VIEW_TYPE } from '../../webview/protocol';

interface Command { command: string; title: string; category?: string; icon?: string }
interface MenuItem { command: string; when?: string }
interface Step { id: string; title: string; description: string; media: { markdown?: string; image?: string }; completionEvents?: string[] }

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
const commands: Command[] = manifest.contributes.commands;
const menus: Record<string, MenuItem[]> = manifest.contributes.menus;
const steps: Step[] = manifest.contributes.walkthroughs[0].steps;

/** Commands that can run whatever is open, so the palette always offers them. */
const ALWAYS_RUNNABLE = ['kubeFailureSim.openExample'];
/** Registered but not contributed: the quick fixes' follow-up, nothing to run by hand. */
const INTERNAL = ['kubeFailureSim.fixApplied'];
/** VS Code's own commands the walkthrough runs or listens to. */
const BUILT_IN = ['workbench.panel.markers.view.focus', 'workbench.actions.view.problems'];

/** The source of the VS Code front end (its workers' modules included). */
function source(dir = path.join(REPO_ROOT, 'src', 'extension')): string {
  return fs.readdirSync(dir, { withFileTypes: true })
    .map((entry) => (entry.isDirectory() ? source(path.join(dir, entry.name)) : fs.readFileSync(path.join(dir, entry.name), 'utf8')))
    .join('\n');
}

function registeredCommands(): string[] {
  const ids = [...source().matchAll(/registerCommand\(\s*'([\w.]+)'/g)].map((m) => m[1]);
  if (/registerCommand\(FIX_APPLIED_COMMAND/.test(source())) ids.push('kubeFailureSim.fixApplied');
  return ids.sort();
}

describe('package.json contributions', () => {
  it('contributes every registered command but the internal one, and registers every contributed one', () => {
    assert.deepEqual(commands.map((c) => c.command).sort(), registeredCommands().filter((c) => !INTERNAL.includes(c)));
  });

  it('gives every command the category, and an icon to every command shown in a menu', () => {
    for (const c of commands) assert.equal(c.category, 'Kubernetes Failure Simulator', c.command);
    for (const [menu, items] of Object.entries(menus)) {
      if (menu === 'commandPalette') continue;
      for (const item of items) assert.match(commands.find((c) => c.command === item.command)?.icon ?? '', /^\$\([\w-]+\)$/, `${menu}: ${item.command}`);
    }
  });

  it('hides from the command palette every command that cannot run whatever is open', () => {
    const palette = new Map(menus.commandPalette.map((item) => [item.command, item.when]));
    for (const c of commands) {
      if (ALWAYS_RUNNABLE.includes(c.command)) assert.equal(palette.get(c.command), undefined, c.command);
      else assert.ok(palette.get(c.command), `${c.command} needs a commandPalette "when"`);
    }
    assert.equal(palette.get('kubeFailureSim.rerun'), 'kubeFailureSim.canRerun');
    assert.equal(palette.get('kubeFailureSim.compare'), 'kubeFailureSim.hasTimeline');
  });

  it('sets the context keys the palette asks for', () => {
    // A key, not a quoted value (activeWebviewPanelId == 'kubeFailureSim.timeline' names the timeline's view type).
    const keys = new Set(menus.commandPalette.flatMap((item) => item.when?.match(/(?<!')\bkubeFailureSim\.\w+\b(?!')/g) ?? []));
    for (const key of keys) assert.ok(source().includes(`'setContext', '${key}'`), key);
    const panels = menus.commandPalette.flatMap((item) => [...(item.when ?? '').matchAll(/activeWebviewPanelId == '([^']+)'/g)].map((m) => m[1]));
    assert.deepEqual([...new Set(panels)], [TIMELINE_VIEW_TYPE]);
  });
});

describe('walkthrough', () => {
  it('has the four steps, each with shipped Markdown media, a command button and completion events that can fire', () => {
    assert.deepEqual(steps.map((s) => s.id), ['openExample', 'seeDiagnostic', 'simulate', 'applyFix']);
    const known = [...registeredCommands(), ...BUILT_IN];
    for (const step of steps) {
      assert.ok(step.media.markdown && fs.existsSync(path.join(REPO_ROOT, step.media.markdown)), `${step.id}: media`);
      assert.match(step.media.markdown!, /^media\//, `${step.id}: media ships only from media/ (.vscodeignore)`);
      const buttons = [...step.description.matchAll(/\]\(command:([\w.]+)\)/g)].map((m) => m[1]);
      assert.equal(buttons.length, 1, `${step.id}: one button`);
      assert.ok(known.includes(buttons[0]), `${step.id}: ${buttons[0]}`);
      assert.ok(step.completionEvents?.length, `${step.id}: completion events`);
      for (const event of step.completionEvents!) {
        const command = /^onCommand:(.+)$/.exec(event)?.[1];
        const context = /^onContext:(.+)$/.exec(event)?.[1];
        if (command) assert.ok(known.includes(command), `${step.id}: ${event}`);
        else if (context) assert.ok(source().includes(`'setContext', '${context}'`), `${step.id}: ${event}`);
        else assert.match(event, /^onView:workbench\.panel\.markers\.view$/);
      }
    }
  });

  it('ships an example with what the steps promise: KFS002 on replicas with "Set replicas: 2", KFS001 and KFS011', () => {
    const uri = 'untitled:postgres-example.yaml';
    const workspace = new Workspace();
    workspace.setDocument(uri, fs.readFileSync(path.join(REPO_ROOT, 'media', 'walkthrough', 'postgres-statefulset.yaml'), 'utf8'));
    const findings = workspace.analyse(uri).findings;
    assert.deepEqual(findings.filter((f) => f.severity === 'warning').map((f) => `${f.ruleId}@${f.range.start.line + 1}:${f.range.start.character + 1}`), ['KFS001@16:7', 'KFS002@22:13', 'KFS011@54:9']);
    assert.deepEqual(workspace.fixes(uri).filter((f) => f.finding.ruleId === 'KFS002').map((f) => f.fix.title)[0], 'Set replicas: 2, for an application that runs as several members (outage if a node fails: until someone acts → 0s)');
    const seeDiagnostic = fs.readFileSync(path.join(REPO_ROOT, 'media', 'walkthrough', 'seeDiagnostic.md'), 'utf8');
    assert.ok(seeDiagnostic.includes('[Ln 22, Col 13]'));
    assert.ok(seeDiagnostic.includes(`deleted at ${/deleted at (\d+m\d+s)/.exec(findings.find((f) => f.ruleId === 'KFS001')!.message)![1]}`));
  });
});
