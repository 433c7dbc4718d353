/**
 * Every import of @vscode/webview-ui-toolkit sits here: upstream deprecated it on 2025-01-01 and we
 * may swap it for @vscode-elements/elements (this file and the tag names in controls.ts). Built as
 * a bundle of its own (dist/webview/toolkit.js), loaded after the timeline's first paint.
 *
 * No vscode-badge: its template carries a style attribute, which a strict CSP (no 'unsafe-inline')
 * reports as a violation; outcome tags are plain spans styled by our CSS.
 */
import {
  provideVSCodeDesignSystem, vsCodeButton, vsCodeCheckbox, vsCodePanels, vsCodePanelTab, vsCodePanelView,
} from '@vscode/webview-ui-toolkit';

provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeCheckbox(), vsCodePanels(), vsCodePanelTab(), vsCodePanelView());

// The toolkit reads the theme's colours on the window's load event, which has passed by the time
// this bundle runs (after the first paint): replay it so that it applies them and starts watching
// for theme changes.
if (document.readyState === 'complete') window.dispatchEvent(new Event('load'));
