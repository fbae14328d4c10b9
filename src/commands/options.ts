import {
  array,
  boolean,
  type core,
  looseObject,
  minLength,
  NEVER,
  enum as oneOf,
  optional,
  type output,
  pipe,
  safeParse,
  string,
  transform,
  type ZodObject,
} from 'zod';
import { isHttpUrl } from '../config/resolve.js';
import { type Decimal, type NumberRules, numberFault, numberRule, parseDecimal } from '../core/number.js';
import { type DeadlineAt, EXCHANGE_MS, LONGEST_TIMER_MS } from '../deadline.js';
import { UsageError } from '../errors.js';
import { FORMATS } from '../output/format-names.js';

// Every action parses its options here, once, at its top: what the code below reads is checked and
// typed, with the same zod as the schemas: one zod API in the house, though zod/mini would load faster for
// a command that loads no schema.

/** The zod pieces the commands' option rules are built from. */
export const z = { optional, string, boolean, enum: oneOf, minLength, array };

const flag = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

type Issue = { path: PropertyKey[]; message: string; code?: string; input?: unknown; params?: { fault?: string } };

/** Turns a failed parse of a command's options into a usage error that names each flag. */
function zodUsageError(error: { issues: readonly Issue[] }, raw: unknown): UsageError {
  const details = error.issues.map((i) => {
    const key = String(i.path[0] ?? '');
    const given = (raw as Record<string, unknown>)?.[key];
    const fault = i.params?.fault ? `: ${i.params.fault}` : '';
    const got = given === undefined || typeof given === 'boolean' ? '' : ` (got ${JSON.stringify(given)}${fault})`;
    return `${flag(key)}: ${i.message}${got}`;
  });
  return new UsageError(
    details.length === 1 ? `invalid option ${details[0]}` : 'invalid options',
    undefined,
    details.length === 1 ? [] : details,
  );
}

/** A string option turned into something else by `convert`, which returns undefined when it refuses. */
export const converted = <T>(
  message: string,
  convert: (s: string) => T | undefined,
  faultOf: (s: string) => string | undefined = () => undefined,
) =>
  pipe(
    string(),
    transform((s: string, ctx) => {
      const value = convert(s);
      if (value === undefined) {
        const fault = faultOf(s);
        ctx.issues.push({ code: 'custom', message, input: s, ...(fault ? { params: { fault } } : {}) });
        return NEVER;
      }
      return value;
    }),
  );

/**
 * A number option, read by the one number reader (core/number.ts: digits, one decimal point; never `0x10`,
 * `1e3` or `Infinity`), then given to `check`, which returns the value or undefined. A refusal says what the
 * flag takes in its own words (`must be a whole number from 1 to 64`), or, for a bare number, the reader's.
 */
export const numeric = <T>(
  message: string | undefined,
  check: (d: Decimal) => T | undefined,
  rules: NumberRules = {},
) =>
  converted(
    message ?? numberRule(rules),
    (s) => {
      const read = parseDecimal(s, rules);
      return read === undefined ? undefined : check(read);
    },
    (s) => numberFault(s, rules),
  );

/** The most seconds a duration flag takes: a timer keeps at most LONGEST_TIMER_MS (about 24.8 days). */
const MAX_SECONDS = Math.floor(LONGEST_TIMER_MS / 1000);

/** A positive number of seconds, as milliseconds, at most MAX_SECONDS (a longer timer would fire at once). */
export const seconds = numeric(`must be a positive number of seconds, at most ${MAX_SECONDS} (24 days)`, ({ value }) =>
  value > 0 && value <= MAX_SECONDS ? value * 1000 : undefined,
);

/** A whole number from `min` (to `max`). */
export const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  numeric(
    `must be a whole number ${max < Number.MAX_SAFE_INTEGER ? `from ${min} to ${max}` : `of at least ${min}`}`,
    ({ value }) => (Number.isInteger(value) && value >= min && value <= max ? value : undefined),
  );

/** The program's own options, which every command inherits. */
const globalShape = {
  profile: z.optional(z.string()),
  baseUrl: z.optional(converted('must be an http:// or https:// URL', (s) => (isHttpUrl(s) ? s : undefined))),
  output: z.optional(z.enum(FORMATS)),
  fields: z.optional(
    converted('needs at least one field name, as in --fields id,name', (s) => {
      const list = s
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean);
      return list.length > 0 ? list : undefined;
    }),
  ),
  query: z.optional(z.string()),
  timeout: z.optional(seconds),
  color: z.optional(z.boolean()),
  pager: z.optional(z.boolean()),
  verbose: z.optional(z.boolean()),
};

type ParsedGlobals = output<ZodObject<typeof globalShape>>;

/**
 * The global options once parsed, --fields as a list. `timeoutMs` bounds each exchange (--timeout, or
 * 30 s); `deadline`, only when --timeout is given, bounds the whole command from its parse (ctx.clock).
 */
export type GlobalOptions = Omit<ParsedGlobals, 'timeout'> & { timeoutMs: number; deadline?: DeadlineAt };

export type OutputOf<S extends core.$ZodShape> = output<ZodObject<S>>;

/** What a command's option rules are built from. */
export interface OptionRules {
  z: typeof z;
  converted: typeof converted;
  numeric: typeof numeric;
  seconds: typeof seconds;
  wholeNumber: typeof wholeNumber;
}

/** A command's own option rules, built by a function so that the command file need not load zod. */
export type ShapeOf<S extends core.$ZodShape> = (m: OptionRules) => S;

/**
 * Parses the global options and the command's own (`shape`); options without a rule in `shape` pass
 * through as commander gave them (flags that are true or absent, strings the command only prints).
 */
export function parseOptions<S extends core.$ZodShape>(
  raw: Record<string, unknown>,
  shape?: S,
): GlobalOptions & output<ZodObject<S>> & Record<string, unknown> {
  const parsed = safeParse(looseObject({ ...globalShape, ...shape }), raw);
  if (!parsed.success) throw zodUsageError(parsed.error as { issues: Issue[] }, raw);
  const { timeout, ...rest } = parsed.data as ParsedGlobals & Record<string, unknown>;
  return {
    ...rest,
    timeoutMs: timeout ?? EXCHANGE_MS,
    ...(timeout === undefined ? {} : { deadline: { ms: timeout, from: performance.now() } }),
  } as never;
}

/** A command's own options alone (`serve` has no global ones), with the same words for each error. */
export function parseOwnOptions<S extends core.$ZodShape>(raw: Record<string, unknown>, shape: S): OutputOf<S> {
  const parsed = safeParse(looseObject(shape), raw);
  if (!parsed.success) throw zodUsageError(parsed.error as { issues: Issue[] }, raw);
  return parsed.data as OutputOf<S>;
}
