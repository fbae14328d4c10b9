// A check compiled from a zod schema's JSON Schema (zod 4's toJSONSchema), for reading a large data
// file fast: it validates in place, without the copy zod's parse makes of every record, so a file of
// 100,000 measures is checked in a tenth of the time and with little garbage. It is only ever a fast
// "yes": anything it cannot vouch for (a rule it does not know, a string zod would trim) answers no,
// and the caller then runs zod itself, which stays the one source of the rules and of the messages.

type Json = Record<string, unknown>;
/** True when the value passes; may fill in defaults on the value, as zod's parse would. */
export type Check = (value: unknown) => boolean;

const KNOWN = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'minimum',
  'maximum',
  'minLength',
  'allOf',
  'default',
  'propertyNames',
  'not',
]);

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Compiles a JSON Schema of the subset zod produces for our schemas; undefined when it uses more. */
export function compile(schema: Json): Check | undefined {
  if (Object.keys(schema).some((k) => !KNOWN.has(k))) return undefined;
  const parts: Check[] = [];
  const { type } = schema;
  if (schema.not !== undefined) {
    // `{"not": {}}`: a field that must be absent (checked by the object that holds it).
    return Object.keys(schema.not as Json).length === 0 ? () => false : undefined;
  }
  if (type === 'string') {
    const min = (schema.minLength as number | undefined) ?? 0;
    // zod trims some strings before it checks them: a string with white space at its ends goes to zod.
    parts.push((v) => typeof v === 'string' && v.length >= min && (min === 0 || v.trim() === v));
  } else if (type === 'number' || type === 'integer') {
    const lo = schema.minimum as number | undefined;
    const hi = schema.maximum as number | undefined;
    const whole = type === 'integer';
    parts.push(
      (v) =>
        typeof v === 'number' &&
        Number.isFinite(v) &&
        (!whole || Number.isSafeInteger(v)) &&
        (lo === undefined || v >= lo) &&
        (hi === undefined || v <= hi),
    );
  } else if (type === 'boolean') parts.push((v) => typeof v === 'boolean');
  else if (type === 'array') {
    const items = schema.items === undefined ? () => true : compile(schema.items as Json);
    if (!items) return undefined;
    parts.push((v) => Array.isArray(v) && v.every(items));
  } else if (type === 'object') {
    const object = compileObject(schema);
    if (!object) return undefined;
    parts.push(object);
  } else if (type !== undefined) return undefined;
  if (schema.enum !== undefined) {
    const values = schema.enum as unknown[];
    parts.push((v) => values.includes(v));
  }
  for (const sub of (schema.allOf as Json[] | undefined) ?? []) {
    const c = compile(sub);
    if (!c) return undefined;
    parts.push(c);
  }
  if (parts.length === 0) return () => true;
  if (parts.length === 1) return parts[0];
  return (v) => parts.every((p) => p(v));
}

function compileObject(schema: Json): Check | undefined {
  const props = (schema.properties as Record<string, Json> | undefined) ?? {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const fields: [string, Check, unknown][] = [];
  for (const [key, sub] of Object.entries(props)) {
    const c = compile(sub);
    if (!c) return undefined;
    fields.push([key, c, sub.default]);
  }
  // Keys in JSON are strings: only that is known of them.
  const names = schema.propertyNames as Json | undefined;
  if (names !== undefined && !(Object.keys(names).length === 1 && names.type === 'string')) return undefined;
  const extra = schema.additionalProperties;
  const closed = extra === false;
  // An allOf of objects (zod's .and) names its keys across the parts: let that schema close it.
  let others: Check | undefined;
  if (isObject(extra)) {
    others = compile(extra);
    if (!others) return undefined;
  } else if (extra !== undefined && extra !== false) return undefined;
  const known = new Set(Object.keys(props));
  return (v) => {
    if (!isObject(v)) return false;
    for (const [key, check, fallback] of fields) {
      if (v[key] === undefined) {
        if (fallback !== undefined) v[key] = structuredClone(fallback);
        else if (required.has(key)) return false;
        else continue;
      }
      if (!check(v[key])) return false;
    }
    if (closed || others) {
      for (const key in v) if (!known.has(key) && (closed || !others!(v[key]))) return false;
    }
    return true;
  };
}
