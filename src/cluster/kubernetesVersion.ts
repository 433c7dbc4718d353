/** Kubernetes minor versions whose failure-timing defaults the simulator knows (SEMANTICS.md 14). */
export const OLDEST_MINOR = 20;
export const NEWEST_MINOR = 36;
export const DEFAULT_VERSION = `1.${NEWEST_MINOR}`;

export interface KubernetesVersion {
  minor: number;
  /** As written by the user, normalised to "1.N". */
  label: string;
}

/** Parses "1.31", "v1.31.2" or "1.31.0"; returns an error message for anything else. */
export function parseKubernetesVersion(text: string): KubernetesVersion | string {
  const match = /^v?1\.(0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[-+].*)?$/.exec(text.trim());
  if (!match) return `"${text}" is not a Kubernetes version; write it like 1.31 or v1.31.2.`;
  const minor = Number(match[1]);
  if (minor < OLDEST_MINOR || minor > NEWEST_MINOR) {
    return `Kubernetes 1.${minor} is outside the versions the simulator knows (1.${OLDEST_MINOR}–1.${NEWEST_MINOR}).`;
  }
  return { minor, label: `1.${minor}` };
}
