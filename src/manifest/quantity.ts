/**
 * Kubernetes resource quantities (`500m`, `1Gi`, `1.5`, `2e3`), as defined by
 * k8s.io/apimachinery/pkg/api/resource: a signed decimal number and an optional binary-SI,
 * decimal-SI or decimal-exponent suffix.
 */
const QUANTITY = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;

const SUFFIX_FACTORS: Record<string, number> = {
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
  n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
};

/** "no quantity may represent a number greater than 2^63-1 in magnitude": larger ones are capped (resource.Quantity). */
const MAX_QUANTITY = 2 ** 63 - 1;

/** The quantity's value in base units (cores, bytes), or undefined if the text is not a quantity. */
export function parseQuantity(input: string | number): number | undefined {
  const value = typeof input === 'number' ? (Number.isFinite(input) ? input : NaN) : quantityValue(input);
  return Number.isNaN(value) ? undefined : Math.max(-MAX_QUANTITY, Math.min(value, MAX_QUANTITY));
}

function quantityValue(input: string): number {
  const match = QUANTITY.exec(input.trim());
  if (!match) return NaN;
  const number = Number(match[1]);
  const suffix = match[2];
  // E alone is exa and Ei exbi; E or e followed by digits is an exponent.
  return !suffix ? number : suffix in SUFFIX_FACTORS ? number * SUFFIX_FACTORS[suffix] : number * 10 ** Number(suffix.slice(1));
}

/** CPU in millicores, rounded up like the API server does for fractions of a millicore. */
export function cpuMillis(quantity: number): number {
  return Math.ceil(quantity * 1000 - 1e-9);
}
