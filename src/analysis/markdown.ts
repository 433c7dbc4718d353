/** Markdown for hovers, with every string from a manifest escaped so that it stays literal text. */

/** CommonMark lets a backslash escape any ASCII punctuation; `<` and `&` also become entities so no HTML can form. */
export function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|~>"'=:;,/?@$%^]/g, '\\$&').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\r\n?|\n/g, ' ');
}

/** Inline code that cannot be broken out of: backticks in the text get a longer fence. */
export function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${longest > 0 ? ' ' : ''}${text.replace(/\r\n?|\n/g, ' ')}${longest > 0 ? ' ' : ''}${fence}`;
}

/**
 * The command link hovers end with; the extension trusts this one command only. The workload
 * goes as the command's JSON argument, percent-encoded down to the characters Markdown could
 * read as the end of the link.
 */
export function simulateLink(target?: string): string {
  const args = target === undefined ? '' : `?${encodeURIComponent(JSON.stringify([{ target }])).replace(/[()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
  return `[Simulate node failure](command:kubeFailureSim.simulate${args} "Simulate a node failure for this workload")`;
}
