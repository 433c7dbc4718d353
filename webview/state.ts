/**
 * What the panel keeps across a reload (getState/setState, and the serializer that revives the
 * panel): the trace it shows and where the user was in it. Checked on restore like a message.
 */
import { isHostMessage, type HostMessage } from './protocol';
import type { TimeWindow } from './timeScale';

export type TabId = 'cursor' | 'summary' | 'events';

export interface UiState {
  view: TimeWindow | null;
  cursorMs: number | null;
  showUnaffected: boolean;
  collapsed: string[];
  tab: TabId;
  scrollTop: number;
}

export interface SavedState {
  message: HostMessage;
  ui: UiState;
}

export const INITIAL_UI: UiState = { view: null, cursorMs: null, showUnaffected: false, collapsed: [], tab: 'cursor', scrollTop: 0 };

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function isUiState(value: unknown): value is UiState {
  if (typeof value !== 'object' || value === null) return false;
  const ui = value as Record<string, unknown>;
  const view = ui.view as Record<string, unknown> | null;
  return (view === null || (typeof view === 'object' && isNumber(view.fromMs) && isNumber(view.toMs) && view.toMs > view.fromMs))
    && (ui.cursorMs === null || isNumber(ui.cursorMs)) && typeof ui.showUnaffected === 'boolean'
    && Array.isArray(ui.collapsed) && ui.collapsed.every((c) => typeof c === 'string')
    && (ui.tab === 'cursor' || ui.tab === 'summary' || ui.tab === 'events') && isNumber(ui.scrollTop);
}

export function restoreState(value: unknown): SavedState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const saved = value as Record<string, unknown>;
  if (!isHostMessage(saved.message)) return undefined;
  return { message: saved.message, ui: isUiState(saved.ui) ? saved.ui : { ...INITIAL_UI } };
}
