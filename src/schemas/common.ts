import type { z } from 'zod';
import { int, never, number, registry, strictObject, string, enum as zEnum } from 'zod';
import { formatAge, formatAgeEnd } from './ages.js';
import { hiddenInName } from './names.js';

// Shared building blocks: every rule is written here once and used by the server and the CLI.

export const nonEmpty = (what = 'value') =>
  string({ error: `must be a string` })
    .trim()
    .min(1, { error: `${what} must not be empty` });

/** A record's name: non-empty, and no character that draws nothing or reorders the text (names.ts). */
export const nameText = (what = 'name') =>
  nonEmpty(what).superRefine((value, ctx) => {
    const hidden = hiddenInName(value);
    if (hidden) ctx.addIssue({ code: 'custom', message: hidden });
  });

export const finite = () => number({ error: 'must be a finite number' });

export const precision = () =>
  int({ error: 'must be a whole number from 0 to 10' })
    .min(0, { error: 'must be a whole number from 0 to 10' })
    .max(10, { error: 'must be a whole number from 0 to 10' });

export const timestamp = () =>
  int({ error: 'must be a whole number of milliseconds since the epoch' }).min(0, { error: 'must not be negative' });

/**
 * What a field is to a caller beyond its type, kept on the schema itself so that the registry's facts
 * (service-set, create-only) are derived from the rules rather than listed again.
 */
export const fieldRoles = registry<{ role: 'service-set' | 'create-only' }>();

/** A field the caller may never send: the service sets it. */
export const serviceSet = (field: string) =>
  never({ error: `${field} is set by the service and cannot be sent` })
    .optional()
    .register(fieldRoles, { role: 'service-set' });

/** A field accepted on create only. */
export const createOnly = (field: string) =>
  never({ error: `${field} is create-only; it cannot be changed by update` })
    .optional()
    .register(fieldRoles, { role: 'create-only' });

const SEX = ['all', 'male', 'female'] as const;
const sexSchema = zEnum(SEX, { error: `must be one of: ${SEX.join(', ')}` });

const rangeShape = {
  min: finite().optional(),
  minPrecision: precision().optional(),
  max: finite().optional(),
  maxPrecision: precision().optional(),
  simin: finite().optional(),
  siminPrecision: precision().optional(),
  simax: finite().optional(),
  simaxPrecision: precision().optional(),
  sex: sexSchema.default('all'),
  ageMin: finite()
    .min(0, { error: 'must not be negative' })
    .optional()
    .describe('The first age in the band: exact years (a year is 365.25 days, a month a twelfth of it)'),
  ageMax: finite()
    .min(0, { error: 'must not be negative' })
    .optional()
    .describe(
      'The first age past the band, exact years: a band holds ageMin <= age < ageMax (0-28 d is 0 to 29/365.25)',
    ),
};

type Bounds = { min?: number; max?: number; simin?: number; simax?: number; ageMin?: number; ageMax?: number };

const PAIRS = [
  ['min', 'max'],
  ['simin', 'simax'],
  ['ageMin', 'ageMax'],
] as const;

/** Every range needs a bound, and each lower bound must not exceed its upper bound. */
export function checkRange(r: Bounds, ctx: z.RefinementCtx): void {
  if (r.min === undefined && r.max === undefined && r.simin === undefined && r.simax === undefined) {
    ctx.addIssue({ code: 'custom', message: 'a range needs at least one of min, max, simin, simax', path: [] });
  }
  for (const [lo, hi] of PAIRS) {
    const a = r[lo];
    const b = r[hi];
    if (lo === 'ageMin' && a !== undefined && b !== undefined && a >= b) {
      // A band is [ageMin, ageMax) (schemas/ages.ts): said in the lab's notation, its last age is before its first.
      const message = `the age band starts at ${formatAge(a)}, after ${formatAgeEnd(b)}, the last age it covers`;
      ctx.addIssue({ code: 'custom', message, path: [hi] });
    } else if (a !== undefined && b !== undefined && a > b) {
      ctx.addIssue({ code: 'custom', message: `${lo} (${a}) must not be greater than ${hi} (${b})`, path: [hi] });
    }
  }
}

export const referenceRangeSchema = strictObject({ id: nonEmpty('id').optional(), ...rangeShape }).superRefine(
  checkRange,
);

/**
 * A panic range holds critical limits, as FHIR R4 defines the `critical` range category: results outside it
 * are critical (below min or simin, above max or simax).
 */
export const panicRangeSchema = strictObject(rangeShape)
  .superRefine(checkRange)
  .describe(
    'Critical limits, as FHIR R4 defines the "critical" range category (observation-range-category): ' +
      'a result below min (simin in SI) or above max (simax) is critical; a one-sided range has one limit. ' +
      'Not the zone of critical values: {"min": 2.5, "max": 6.5} is critical below 2.5 or above 6.5.',
  );

/** A field error as it travels in problem+json: a readable path and a sentence. */
export interface FieldError {
  path: string;
  message: string;
}

/** `referenceRanges[1].max` from zod's ['referenceRanges', 1, 'max']. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** Flattens zod issues into field errors, naming each unknown key on its own. */
export function toFieldErrors(error: z.ZodError, input: unknown, prefix: readonly PropertyKey[] = []): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const base = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: formatPath([...base, key]), message: `unknown field ${key}` });
    } else if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
      out.push({ path: formatPath(base), message: 'is required' });
    } else {
      out.push({ path: formatPath(base) || '(body)', message: issue.message });
    }
  }
  return out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/**
 * More values than any record holds (a measure has a few dozen): refused before zod, which makes an issue
 * for each bad value; 1 MiB of `[]` in `choices` was 349,000 issues, 700 MB and a 41 MB answer.
 */
const MAX_VALUES = 10_000;

/** Whether `input` holds more than `max` values (objects, arrays and scalars alike), counted without recursion. */
function holdsMoreThan(input: unknown, max: number): boolean {
  const stack: unknown[] = [input];
  let seen = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (++seen > max) return true;
    if (v !== null && typeof v === 'object') for (const child of Object.values(v)) stack.push(child);
  }
  return false;
}

export function parseWith<T>(schema: z.ZodType<T>, input: unknown): ParseResult<T> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, errors: [{ path: '(body)', message: 'must be a JSON object' }] };
  }
  if (holdsMoreThan(input, MAX_VALUES)) {
    const message = `holds more than ${MAX_VALUES.toLocaleString('en-US')} values; a record holds far fewer`;
    return { ok: false, errors: [{ path: '(body)', message }] };
  }
  const r = schema.safeParse(input);
  return r.success ? { ok: true, value: r.data } : { ok: false, errors: toFieldErrors(r.error, input) };
}
