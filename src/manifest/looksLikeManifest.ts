/**
 * Whether a YAML text is worth analysing as Kubernetes manifests, without parsing it: it has an
 * apiVersion and a kind key, at the start of a line (a list item's included) or inside a flow mapping or JSON
 * ({"apiVersion": "apps/v1", "kind": ...}), quoted or not. The editor asks this of every YAML file.
 */
export const API_VERSION_KEY = /(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)["']?apiVersion["']?\s*:/;
export const KIND_KEY = /(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)["']?kind["']?\s*:/;

const API_VERSION_ANYWHERE = new RegExp(API_VERSION_KEY.source, 'm');
const KIND_ANYWHERE = new RegExp(KIND_KEY.source, 'm');

export function looksLikeManifest(text: string): boolean {
  return API_VERSION_ANYWHERE.test(text) && KIND_ANYWHERE.test(text);
}
