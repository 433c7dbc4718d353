/** js-yaml 4.1, installed under an alias for the parser benchmark only. */
declare module 'js-yaml-4' {
  export function loadAll(input: string): unknown[];
}
