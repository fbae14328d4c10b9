import type { Warning } from '../../core/lint.js';
import { numberFault, parseDecimal, writtenPrecision } from '../../core/number.js';
import { quoted } from '../../core/problems.js';
import type { RangeLike } from '../../core/ranges.js';
import type { FieldError } from '../../schemas/common.js';
import { sourcePath } from '../source-path.js';
import { yearsOf } from './ages.js';
import { at, type MasterRecord, repetitions, value } from './master-file.js';
import type { Segment } from './syntax.js';
import { ANSWER_SYSTEM_POSNEG, ID_SYSTEM, TYPE_OF, UCUM_SYSTEM } from './table.js';

// A measure from one record of an HL7 v2 master file, by the table in table.ts (docs/catalogs.md shows it).
// What the measure has no field for is a warning naming the HL7 field, never dropped in silence; what
// cannot be read is an error naming the segment and field.

export interface FromHl7 {
  value: Record<string, unknown>;
  warnings: Warning[];
  errors: FieldError[];
  /** The record-level event: MAD/MUP import, MDL deletes under --prune, MDC/MAC are refused. */
  event: string;
  /** Its message is a file of changes (MFI-3 UPD), so --prune deletes none of the records it leaves unnamed. */
  update?: boolean;
  /** A measure field's HL7 place, for messages: `referenceRanges[1].max` → `segment 14 (OM2-6) #2`. */
  pathOf: (measurePath: string) => string;
  /** Ranges limited to people a range cannot name (RFR race, condition…): the adapter refuses or leaves them out. */
  unheld: UnheldRange[];
}

/** A range of `value` (`referenceRanges[2]`) that holds only for `what`, written at `place`. */
interface UnheldRange {
  list: 'referenceRanges' | 'panicRanges';
  index: number;
  place: string;
  what: string;
}

const SIGNED = { negative: true };
const SEXES: Record<string, string> = { '': 'all', M: 'male', F: 'female' };
/** A number, or two with a dash or & between: what OM2-2 or OM2-4 holds when a range was put there. */
const NUMBER_OR_RANGE = /^[+-]?\d+(\.\d*)?(\s*[-–&]\s*[+-]?\d+(\.\d*)?)?$/;
const SEX_WORDS: Record<string, string> = { U: 'unknown', A: 'ambiguous', O: 'other', N: 'not applicable' };

/** A number of an NM component (an optional sign, digits, one decimal point: HL7 v2.5.1 2.A.47). */
function decimal(written: string, where: string, errors: FieldError[]) {
  // Spaces around a component are not data (HL7's own RFR example writes `12.0 & 16`).
  const text = written.trim();
  if (text === '') return undefined;
  const digits = text.startsWith('+') ? text.slice(1) : text;
  const d = parseDecimal(digits, SIGNED);
  if (d === undefined)
    errors.push({
      path: where,
      message: `expected a number (NM), found ${quoted(text)}: ${numberFault(digits, SIGNED)}`,
    });
  return d;
}

/** The measure a master-file record describes; `test` is the battery that names it as a member, if any. */
export function measureFromHl7(rec: MasterRecord, test: string | undefined): FromHl7 {
  const warnings: Warning[] = [];
  const errors: FieldError[] = [];
  const paths: Record<string, string> = {};
  const unheld: UnheldRange[] = [];
  const { mfe, om } = rec;
  const om1 = om.get('OM1');
  const om2 = om.get('OM2');
  const om3 = om.get('OM3');
  const event = value(mfe, 1);
  const m: Record<string, unknown> = {};
  if (!om1) {
    errors.push({ path: at(mfe), message: 'an MFE with no OM1 after it: nothing says what the observation is' });
    return { value: m, warnings, errors, event, update: rec.update, pathOf: (p) => p, unheld };
  }
  if (event === 'MDC' || event === 'MAC')
    errors.push({
      path: at(mfe, 1),
      message:
        `${event} (${event === 'MDC' ? 'deactivate' : 'reactivate'}) has no field in a measure to hold it: ` +
        'remove the record, or send MDL to delete it',
    });
  else if (!['MAD', 'MUP', 'MDL'].includes(event))
    errors.push({ path: at(mfe, 1), message: `expected a record event MAD, MUP or MDL, found ${quoted(event)}` });

  const code = value(om1, 2, 1);
  const system = value(om1, 2, 3);
  m.name = value(om1, 2, 2) || value(om1, 9);
  paths.name = at(om1, 2);
  // Our own export names a measure without an HL7 code by its id, under our local system (table.ts).
  if (code && system === ID_SYSTEM) m.id = code;
  else if (code) {
    m.hl7IdentifierCod = code;
    m.hl7IdentifierSys = system || undefined;
  }
  if (test !== undefined) m.test = test;
  for (const i of repetitions(om1, 7, (r) => r))
    if (value(om1, 7, 3, i) === ID_SYSTEM && value(om1, 7, 1, i)) m.id = value(om1, 7, 1, i);
  const description = value(om1, 6);
  if (description) m.description = description;

  const types = repetitions(om1, 3, (r) => value(om1, 3, 1, r));
  const type = Object.hasOwn(TYPE_OF, types[0] ?? '') ? TYPE_OF[types[0]] : undefined;
  if (types.length > 1)
    warnings.push({ field: 'OM1-3', message: `only the first permitted type (${types[0]}) is read` });
  if (types[0] && !type)
    errors.push({
      path: at(om1, 3),
      message: `the data type ${quoted(types[0])} has no measure type (NM, SN, CWE, CE, CNE, ST, TX, FT)`,
    });
  else if (type) m.type = type;

  if (om2) numeric(m, om2, { warnings, errors, unheld }, paths);
  if (om3) categorical(m, om3, warnings);
  for (const seg of rec.repeated)
    warnings.push({ field: at(seg), message: `a second ${seg.name} in one record: not read` });
  for (const name of om.keys())
    if (!['OM1', 'OM2', 'OM3', 'OM5'].includes(name))
      warnings.push({ field: at(om.get(name)!), message: `${name} has no field in a measure: not imported` });
  return { value: m, warnings, errors, event, update: rec.update, pathOf: (p) => sourcePath(paths, p, false), unheld };
}

/** OM2: units, the display mask, reference (OM2-6) and critical (OM2-7) ranges. */
function numeric(
  m: Record<string, unknown>,
  om2: Segment,
  found: { warnings: Warning[]; errors: FieldError[]; unheld: UnheldRange[] },
  paths: Record<string, string>,
) {
  const { warnings, errors } = found;
  const unit = (value(om2, 2, 1) || value(om2, 2, 2)).trim();
  if (unit) m.unit = unit;
  const unitSystem = value(om2, 2, 3);
  if (unit && unitSystem && unitSystem !== UCUM_SYSTEM)
    warnings.push({ field: 'OM2-2', message: `unit ${quoted(unit)} is in coding system ${unitSystem}, not UCUM` });
  const siunit = (value(om2, 4, 1) || value(om2, 4, 2)).trim();
  if (siunit) m.siunit = siunit;
  // A number or a range in a unit field is a range written in the wrong field, never a unit.
  for (const [field, text] of [
    [2, unit],
    [4, siunit],
  ] as const)
    if (NUMBER_OR_RANGE.test(text))
      errors.push({
        path: at(om2, field),
        message: `${quoted(text)} is a number or a range, not a unit: ranges go in OM2-6 and OM2-7`,
      });
  const factor = value(om2, 5);
  if (factor)
    warnings.push({
      field: 'OM2-5',
      message: `the SI conversion factor ${quoted(factor)} has no field in a measure: not imported`,
    });
  // OM2-3 is length.decimals (6.2 displays as XXX.XX): the decimals of a bound written without any.
  const mask = repetitions(om2, 3, (r) => value(om2, 3, 1, r).trim())[0];
  if (mask !== undefined && !/^\d{1,3}(\.\d{1,2})?$/.test(mask))
    errors.push({
      path: at(om2, 3),
      message: `${quoted(mask)} is not a precision mask: write length.decimals (4.1 shows XX.X)`,
    });
  // The mask speaks for the bounds only when none of them is written with a decimal point: a bound written
  // `8` beside one written `3.5` says 0 decimals, as our export writes it.
  const anyPoint = [6, 7].some((f) => (om2.fields[f] ?? []).some((rep) => (rep[0] ?? []).some((b) => b.includes('.'))));
  const maskDecimals = mask && !anyPoint ? parseDecimal(mask.split('.')[1] ?? '0')?.value : undefined;
  for (const [field, key] of [
    [6, 'referenceRanges'],
    [7, 'panicRanges'],
  ] as const) {
    const ranges = repetitions(om2, field, (r) => rangeOf(om2, field, r, maskDecimals, errors));
    ranges.forEach(({ limits }, i) => {
      const place = `${at(om2, field)} repetition ${i + 1}`;
      paths[`${key}[${i}]`] = place;
      for (const what of limits) found.unheld.push({ list: key, index: i, place, what });
    });
    if (ranges.length > 0) m[key] = ranges.map(({ range }) => range);
  }
  for (const [field, what] of [
    [8, 'absolute range'],
    [9, 'delta check'],
    [10, 'minimum meaningful increment'],
  ] as const)
    if (repetitions(om2, field, (r) => r).length > 0)
      warnings.push({ field: `OM2-${field}`, message: `the ${what} has no field in a measure: not imported` });
}

/**
 * One RFR: NR low&high ^ sex ^ age NR ^ gestational age ^ species ^ race ^ conditions; with the limits a range
 * cannot hold (RFR-4 to RFR-7), in words.
 */
function rangeOf(
  om2: Segment,
  field: number,
  rep: number,
  maskDecimals: number | undefined,
  errors: FieldError[],
): { range: RangeLike; limits: string[] } {
  const where = `${at(om2, field)} repetition ${rep + 1}`;
  const r: RangeLike = {};
  for (const [sub, bound, precision] of [
    [1, 'min', 'minPrecision'],
    [2, 'max', 'maxPrecision'],
  ] as const) {
    const d = decimal(value(om2, field, 1, rep, sub), `${where}, ${sub === 1 ? 'low' : 'high'} value`, errors);
    if (!d) continue;
    r[bound] = d.value;
    // The digits as written say the precision; a bound with none takes OM2-3's decimals.
    const p = d.decimals > 0 ? writtenPrecision(d) : maskDecimals ? maskDecimals : undefined;
    if (p !== undefined) r[precision] = p;
  }
  const sex = value(om2, field, 2, rep).trim();
  if (Object.hasOwn(SEXES, sex)) r.sex = SEXES[sex];
  else
    errors.push({
      path: `${where}, sex`,
      message:
        `sex ${quoted(sex)}${Object.hasOwn(SEX_WORDS, sex) ? ` (${SEX_WORDS[sex]})` : ''} cannot be a range's: ` +
        "a measure's ranges are for M, F or both (empty)",
    });
  for (const [sub, end] of [
    [1, 'ageMin'],
    [2, 'ageMax'],
  ] as const) {
    const d = decimal(value(om2, field, 3, rep, sub), `${where}, age range`, errors);
    if (d) r[end] = yearsOf(d);
  }
  const limits: string[] = [];
  for (const [component, what] of [
    [4, 'gestational age'],
    [5, 'species'],
    [6, 'race or subspecies'],
    [7, 'condition'],
  ] as const) {
    // RFR-4 is a range (low&high), shown as one; the others are text (ST, TX), shown as written.
    const text = [1, 2]
      .map((s) => value(om2, field, component, rep, s).trim())
      .filter(Boolean)
      .join(component === 4 ? '–' : '&');
    if (text) limits.push(`${what} (RFR-${component}) ${quoted(text)}`);
  }
  return { range: r, limits };
}

/** OM3: the coded answers (OM3-3) as choices; a Positive/Negative list in HL7 table 0078 is a posneg measure. */
function categorical(m: Record<string, unknown>, om3: Segment, warnings: Warning[]) {
  const answers = repetitions(om3, 3, (r) => ({
    code: value(om3, 3, 1, r),
    text: value(om3, 3, 2, r),
    system: value(om3, 3, 3, r),
  }));
  const system = value(om3, 2, 1);
  const codes = answers
    .map((a) => a.code)
    .sort()
    .join(',');
  if (
    (system === ANSWER_SYSTEM_POSNEG || answers.every((a) => a.system === ANSWER_SYSTEM_POSNEG)) &&
    codes === 'NEG,POS'
  ) {
    m.type = 'posneg';
    return;
  }
  if (answers.length > 0) m.choices = answers.map((a) => a.text || a.code);
  for (const [field, what] of [
    [4, 'normal'],
    [5, 'abnormal'],
    [6, 'critical'],
  ] as const)
    if (repetitions(om3, field, (r) => r).length > 0)
      warnings.push({ field: `OM3-${field}`, message: `the ${what} answers have no field in a measure: not imported` });
}
