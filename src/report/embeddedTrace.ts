/** The HTML report's embedded trace: the script element that carries it, and what the page says when it cannot be read. */
export const EMBEDDED_TRACE_ID = 'kfs-trace';

export const UNREADABLE_TRACE = `This report's trace (the script element with id ${EMBEDDED_TRACE_ID}) cannot be read: the file was changed or cut short.`;
