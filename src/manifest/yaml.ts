/**
 * The one module that talks to js-yaml. Version 5's event API gives exact source offsets:
 * `parseEvents` yields a flat event stream and `constructFromEvents` builds the values from
 * the same events, so one parse gives both values and ranges.
 */
import {
  EVENT_ID,
  NOT_RESOLVED,
  Schema,
  YAML11_SCHEMA,
  constructFromEvents,
  floatYaml11Tag,
  getScalarValue,
  intYaml11Tag,
  load,
  parseEvents,
  type Event,
  type ScalarEvent,
} from 'js-yaml';
import { MAX_ALIASES_PER_DOCUMENT, MAX_DEPTH, parseGoInt } from './limits';

export { EVENT_ID };
export type { Event, ScalarEvent };

/**
 * go-yaml v2 reads a plain scalar as a float when its yamlStyleFloat matches and strconv parses
 * it (resolve.go): also an exponent without a dot, which YAML 1.1 does not allow (`replicas: 1e3`
 * reaches the API server as 1000), and not a value out of range (`1e309` stays a string).
 */
const GO_YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const GO_YAML_SPECIAL_FLOAT = /^([-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$/;
const goYamlFloatTag: typeof floatYaml11Tag = {
  ...floatYaml11Tag,
  resolve: (source, ...rest) => {
    const plain = source.replace(/_/g, '');
    // Besides yamlStyleFloat, go-yaml's resolve table has only .inf and .nan; no sexagesimal 1:30.5.
    if (!GO_YAML_FLOAT.test(plain)) return GO_YAML_SPECIAL_FLOAT.test(source) ? floatYaml11Tag.resolve(source, ...rest) : NOT_RESOLVED;
    const value = Number(plain);
    return Number.isFinite(value) ? value : NOT_RESOLVED;
  },
};

/**
 * go-yaml v2 reads a plain scalar as an integer when strconv.ParseInt(…, 0, 64) takes it once
 * underscores are dropped (resolve.go): 0x1F, 0o17 and 0b11 in either case, 010 as octal. YAML
 * 1.1's sexagesimal 1:30 is not one of them: it reaches the API server as the string "1:30".
 */
const goYamlIntTag: typeof intYaml11Tag = {
  ...intYaml11Tag,
  resolve: (source) => {
    const value = parseGoInt(source.replace(/_/g, ''));
    return value === undefined ? NOT_RESOLVED : Number(value);
  },
};

/**
 * Kubernetes reads YAML with go-yaml v2 (through sigs.k8s.io/yaml), which follows YAML 1.1
 * for booleans (`yes`, `on`), octal (`0644`) and merge keys (`<<`). Timestamps stay strings:
 * the API server receives JSON, where they are strings.
 */
export const kubernetesSchema = new Schema(YAML11_SCHEMA.tags
  .filter((tag) => !tag.tagName.endsWith(':timestamp'))
  .map((tag) => (tag === floatYaml11Tag ? goYamlFloatTag : tag === intYaml11Tag ? goYamlIntTag : tag)));

export interface YamlSyntaxError {
  /** limit: one of the parser's own bounds; aliasing: what go-yaml rejects (aliasExpansion.ts). */
  kind: 'syntax' | 'limit' | 'aliasing';
  message: string;
  /** Offset in the parsed text. */
  offset: number;
  /** Length of the text at fault, when known (else the token at the offset). */
  length?: number;
}

export interface YamlParse {
  events: Event[];
  /** One value per YAML document in the text. */
  values: unknown[];
}

export function parseYaml(text: string): YamlParse | YamlSyntaxError {
  try {
    const events = parseEvents(text, { maxDepth: MAX_DEPTH });
    const values = constructFromEvents(events, {
      source: text,
      schema: kubernetesSchema,
      maxAliases: MAX_ALIASES_PER_DOCUMENT,
    });
    return { events, values };
  } catch (error) {
    return toSyntaxError(error, text.length);
  }
}

function toSyntaxError(error: unknown, textLength: number): YamlSyntaxError {
  const e = error as { reason?: unknown; message?: unknown; mark?: { position?: unknown } };
  const reason = typeof e.reason === 'string' ? e.reason : String(e.message ?? error);
  const position = typeof e.mark?.position === 'number' ? e.mark.position : 0;
  const isLimit = /exceeded (maxDepth|maxAliases|maxTotalMergeKeys)/.test(reason);
  return { kind: isLimit ? 'limit' : 'syntax', message: reason, offset: Math.max(0, Math.min(position, textLength)) };
}

export function isSyntaxError(result: YamlParse | YamlSyntaxError): result is YamlSyntaxError {
  return (result as YamlSyntaxError).message !== undefined;
}

const PLAIN_STRING_KEY = /^[A-Za-z_/][A-Za-z0-9_.\-/]*$/;
const NON_STRING_WORDS = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL)$/;

/** The string a mapping key becomes in the constructed object (js-yaml stringifies scalar keys). */
export function scalarKey(source: string, event: ScalarEvent): string {
  if (event.valueStart < 0) return 'null';
  if (event.style !== 1 /* plain */) return getScalarValue(source, event);
  const text = event.fast ? source.slice(event.valueStart, event.valueEnd) : getScalarValue(source, event);
  if (event.tagStart < 0 && PLAIN_STRING_KEY.test(text) && !NON_STRING_WORDS.test(text)) return text;
  try {
    const tag = event.tagStart >= 0 ? source.slice(event.tagStart, event.tagEnd) + ' ' : '';
    return String(load(tag + text, { schema: kubernetesSchema }));
  } catch {
    return text;
  }
}
