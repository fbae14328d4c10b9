import { plainDecimal, precisionOf } from '../../core/number.js';
import type { RangeLike } from '../../core/ranges.js';
import type { Rec } from '../json/record.js';
import { siOnly } from '../kept.js';
import { yearsText } from './ages.js';
import { escapeHl7, DEFAULT_SEPARATORS as S } from './syntax.js';
import { ANSWER_SYSTEM_POSNEG, DATA_TYPE, ID_SYSTEM, MASTER_FILE, POSNEG_ANSWERS, UCUM_SYSTEM } from './table.js';

// A catalog as HL7 v2.5.1 master files (chapter 8): one MFN^M08 message with every measure (MFE, OM1, OM2 for
// a numeric one, OM3 for a coded one: M08 carries OM3 too), then one MFN^M10 message whose batteries (OM5)
// are the measures' tests, so the file says which test each measure belongs to. Two messages make a batch
// (BHS … BTS). Every value is escaped; segments end in a carriage return, as chapter 2 requires.

const SEX: Record<string, string> = { all: '', male: 'M', female: 'F' };

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const e = (v: unknown) => escapeHl7(str(v));
/** A CWE: code ^ text ^ coding system, each escaped, empty trailing components left out. */
const cwe = (...parts: string[]) =>
  parts
    .map((p) => escapeHl7(p))
    .join(S.component)
    .replace(/\^+$/, '');

/** YYYYMMDDHHMMSS+ZZZZ in UTC: HL7's DTM (2.A.22). */
const dtm = (d: Date) => `${d.toISOString().replace(/[-:T]/g, '').slice(0, 14)}+0000`;

/** OM1-2 and MFE-4: the HL7 code where the measure has one, else its id under our local system. */
function identifier(m: Rec): string {
  if (str(m.hl7IdentifierCod)) return cwe(str(m.hl7IdentifierCod), str(m.name), str(m.hl7IdentifierSys));
  return cwe(str(m.id), str(m.name), str(m.id) ? ID_SYSTEM : '');
}

/**
 * A battery's member in OM5-2: its identifier, and its id as the CWE's alternate identifier (components 4-6),
 * so that two tests' measures of one LOINC code each find their own battery.
 */
function member(m: Rec): string {
  if (!str(m.hl7IdentifierCod) || !str(m.id)) return identifier(m);
  return cwe(str(m.hl7IdentifierCod), str(m.name), str(m.hl7IdentifierSys), str(m.id), '', ID_SYSTEM);
}

/** A bound at its precision, and its own text's length for OM2-3. */
const bound = (v: unknown, p: unknown) => (typeof v === 'number' ? plainDecimal(v, precisionOf(v, p)) : '');

/** One RFR: low&high ^ sex ^ age low&age high, in years (8.8.4.6). */
function rfr(r: RangeLike): string {
  const numeric = [bound(r.min, r.minPrecision), bound(r.max, r.maxPrecision)].join(S.subcomponent);
  const ages =
    r.ageMin === undefined && r.ageMax === undefined
      ? ''
      : [r.ageMin, r.ageMax].map((a) => (a === undefined ? '' : yearsText(a))).join(S.subcomponent);
  return [numeric, SEX[r.sex ?? 'all'] ?? '', ages].join(S.component).replace(/\^+$/, '');
}

/** OM2-3's mask, length.decimals: the widest bound written and its most decimals. */
function mask(ranges: RangeLike[]): string {
  let length = 0;
  let decimals = 0;
  for (const r of ranges)
    for (const [v, p] of [
      [r.min, r.minPrecision],
      [r.max, r.maxPrecision],
    ] as const) {
      if (typeof v !== 'number') continue;
      length = Math.max(length, bound(v, p).length);
      decimals = Math.max(decimals, precisionOf(v, p));
    }
  return length === 0 ? '' : `${length}.${decimals}`;
}

function observation(m: Rec, n: number): string[] {
  const id = identifier(m);
  // A measure without a type has none in OM1-3 (optional in v2.5.1), so that it reads back without one; a
  // server's word is looked up as the table's own types only, never an object's inherited name (toString).
  const type = str(m.type);
  const dataType = type ? (Object.hasOwn(DATA_TYPE, type) ? DATA_TYPE[type] : 'ST') : '';
  const others = str(m.hl7IdentifierCod) && str(m.id) ? cwe(str(m.id), '', ID_SYSTEM) : '';
  const out = [`MFE|MAD|${n}||${id}|CWE`, `OM1|${n}|${id}|${dataType}|||${e(m.description)}|${others}`];
  // An RFR holds OM2-2's unit: a range of SI bounds alone has no place in one (its import keeps the server's).
  const refs = ((m.referenceRanges as RangeLike[] | undefined) ?? []).filter((r) => !siOnly(r));
  const panics = ((m.panicRanges as RangeLike[] | undefined) ?? []).filter((r) => !siOnly(r));
  if (dataType === 'NM' || refs.length + panics.length > 0 || m.unit || m.siunit) {
    const unit = str(m.unit) ? cwe(str(m.unit), '', UCUM_SYSTEM) : '';
    const siunit = str(m.siunit) ? cwe(str(m.siunit), '', UCUM_SYSTEM) : '';
    const fields = [
      unit,
      mask([...refs, ...panics]),
      siunit,
      '',
      refs.map(rfr).join(S.repetition),
      panics.map(rfr).join(S.repetition),
    ];
    out.push(`OM2|${n}|${fields.join(S.field)}`.replace(/\|+$/, ''));
  }
  if (type === 'posneg')
    out.push(
      `OM3|${n}|${ANSWER_SYSTEM_POSNEG}|${POSNEG_ANSWERS.map(([c, t]) => cwe(c, t, ANSWER_SYSTEM_POSNEG)).join('~')}`,
    );
  else if (Array.isArray(m.choices) && m.choices.length > 0)
    out.push(`OM3|${n}||${m.choices.map((c) => cwe('', str(c))).join(S.repetition)}`);
  return out;
}

function header(event: string, control: string, now: Date): string[] {
  return [
    `MSH|^~\\&|clinadmin||||${dtm(now)}||MFN^${event}^MFN_${event}|${control}|P|2.5.1||||||UNICODE UTF-8`,
    `MFI|${MASTER_FILE[event]}||REP|||NE`,
  ];
}

/** The HL7 v2 text of a catalog, measures sorted as the other formats sort them. */
export function catalogHl7(list: Rec[], now: Date): string {
  const control = dtm(now).slice(0, 14);
  const lines = header('M08', `${control}-1`, now);
  list.forEach((m, i) => {
    lines.push(...observation(m, i + 1));
  });
  const tests = new Map<string, Rec[]>();
  for (const m of list) {
    if (!str(m.test)) continue;
    const members = tests.get(str(m.test));
    if (members) members.push(m);
    else tests.set(str(m.test), [m]);
  }
  if (tests.size > 0) {
    lines.push(...header('M10', `${control}-2`, now));
    let n = 0;
    for (const [test, members] of tests) {
      n++;
      const id = cwe(test, '', ID_SYSTEM);
      lines.push(`MFE|MAD|${n}||${id}|CWE`, `OM1|${n}|${id}|||||`.replace(/\|+$/, ''));
      lines.push(`OM5|${n}|${members.map(member).join(S.repetition)}`);
    }
    lines.unshift(`BHS|^~\\&|clinadmin||||${dtm(now)}`);
    lines.push('BTS|2');
  }
  return `${lines.join('\r')}\r`;
}
