import { Ajv } from 'ajv';
import type { Rec } from '../formats/json/record.js';

// The data file's fast check: ajv over the JSON Schema zod 4 writes of our schemas (toJSONSchema), so a
// file of 100,000 measures is checked in place, without the copy zod's parse makes of every record. It
// is only ever a fast "yes": anything ajv cannot vouch for answers no, and the caller then runs zod,
// which stays the one source of the rules and of the messages.

/** True when the value passes; fills in defaults on the value, as zod's parse would. */
export type Check = (value: unknown) => boolean;

/**
 * zod trims some strings (a non-empty name) before it checks them; JSON Schema cannot say so. Each
 * string that must not be empty is held here to have no white space at its ends, so such a string goes
 * to zod, which trims it, rather than in untrimmed.
 */
function untrimmedGoesToZod(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(untrimmedGoesToZod);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Rec = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, untrimmedGoesToZod(v)]));
  if (out.type === 'string' && typeof out.minLength === 'number' && out.minLength > 0) {
    out.pattern = '^(?!\\s)[\\s\\S]*(?<!\\s)$';
  }
  return out;
}

/** Compiles the schema with ajv (JSON Schema draft-07, ajv's main entry); undefined if ajv refuses it. */
export function compile(schema: Rec): Check | undefined {
  try {
    // The schema is zod's, not input: checking it against JSON Schema's meta-schema at each start buys nothing.
    const ajv = new Ajv({ useDefaults: true, strict: false, validateSchema: false, validateFormats: false });
    const validate = ajv.compile(untrimmedGoesToZod(schema) as Rec);
    return (value) => validate(value) === true;
  } catch {
    return undefined;
  }
}
