import { type Unheld, unheldRange } from '../../core/unheld.js';
import type { Adapted } from '../adapted.js';
import { type MasterRecord, masterRecords, repetitions, value } from './master-file.js';
import type { Segment } from './syntax.js';
import { ID_SYSTEM } from './table.js';
import { type FromHl7, measureFromHl7 } from './to-measure.js';

/** Where a record read from HL7 keeps its reading, for the import's adapter (prepare.ts) to take. */
export const FROM_HL7 = Symbol('clinadmin.fromHl7');

export type Hl7Value = Record<string, unknown> & { [FROM_HL7]?: FromHl7 };

/** A record as records.ts hands it on, its line the MFE's. */
interface Hl7Record {
  source: string;
  position: number;
  line: number;
  value: Hl7Value;
}

/** How many batteries a warning names for a member of several. */
const NAMED = 10;

/** An observation's key among a battery's members: its code where it has one, else its name. */
const memberKey = (code: string, text: string) => (code ? `code:${code}` : `name:${text}`);

/** A member's key in OM5-2: our id where the CWE gives one (as code or alternate code), else memberKey. */
function memberOf(om5: Segment, r: number): string {
  if (value(om5, 2, 6, r) === ID_SYSTEM && value(om5, 2, 4, r)) return `id:${value(om5, 2, 4, r)}`;
  if (value(om5, 2, 3, r) === ID_SYSTEM && value(om5, 2, 1, r)) return `id:${value(om5, 2, 1, r)}`;
  return memberKey(value(om5, 2, 1, r), value(om5, 2, 2, r));
}

/**
 * The measures of an HL7 v2 master file, a record each, in file order. A battery (M10: OM1 then OM5) is not a
 * measure: it gives its members their test (OM1-2's code), as FHIR import takes it from --test.
 */
export function hl7Records(text: string, source: string): Hl7Record[] {
  const records = masterRecords(text, source);
  const testOf = new Map<string, string>();
  // A member of several batteries: the first few named, and how many there were (one of 80,000 stays small).
  const twice = new Map<string, { named: string[]; count: number }>();
  for (const rec of records) {
    const om5 = rec.om.get('OM5');
    const om1 = rec.om.get('OM1');
    if (!om5 || !om1) continue;
    const battery = value(om1, 2, 1) || value(om1, 2, 2);
    for (const key of repetitions(om5, 2, (r) => memberOf(om5, r))) {
      const before = testOf.get(key);
      if (before === undefined || before === battery) {
        testOf.set(key, battery);
        continue;
      }
      const also = twice.get(key) ?? { named: [before], count: 1 };
      if (also.named.length < NAMED) also.named.push(battery);
      also.count++;
      twice.set(key, also);
    }
    forget(rec);
  }
  const out: Hl7Record[] = [];
  for (const rec of records) {
    if (isBattery(rec)) continue;
    const om1 = rec.om.get('OM1');
    const read = measureFromHl7(rec, undefined);
    // The battery that lists the measure by its id, else by its code or name.
    const byId = typeof read.value.id === 'string' ? `id:${read.value.id}` : undefined;
    const key = byId !== undefined && testOf.has(byId) ? byId : memberKey(value(om1, 2, 1), value(om1, 2, 2));
    if (testOf.has(key)) read.value.test = testOf.get(key);
    const also = twice.get(key);
    if (also) {
      const more = also.count > also.named.length ? ` and ${also.count - also.named.length} more` : '';
      read.warnings.push({
        field: 'OM5-2',
        message: `a member of batteries ${also.named.join(', ')}${more}: imported under ${also.named[0]}`,
      });
    }
    forget(rec);
    const value_: Hl7Value = { ...read.value, [FROM_HL7]: read };
    out.push({ source, position: out.length + 1, line: rec.mfe.line, value: value_ });
  }
  return out;
}

/** Lets go of a record's split fields once it is read: the file's text stays, not its many small arrays. */
function forget(rec: MasterRecord): void {
  rec.mfe.forget();
  for (const seg of rec.om.values()) seg.forget();
  for (const seg of rec.repeated) seg.forget();
}

/** An M10 record (OM5 present): a battery of other observations, not a measure itself. */
const isBattery = (rec: MasterRecord) => rec.om.has('OM5');

/**
 * A record read from HL7 as the import takes it: a missing test from `test` (--test); an MDL skipped and
 * reported, marked so that --prune deletes the record it names (by its id, else its test and name) and
 * nothing else: its test is not the file's to empty (HL7 v2.5.1 8.5.1.1: MDL deletes one record), nor is the
 * test of any record of a message of changes (MFI-3 UPD, table 0178); a range
 * for people a range cannot name (RFR race, condition…) an error, or left out with a warning under
 * `unheld.leaveOut`.
 */
export function adaptHl7(read: FromHl7, test: string | undefined, unheld: Unheld = {}): Adapted {
  const value = { ...read.value };
  if (value.test === undefined && test !== undefined) value.test = test;
  const adapted: Adapted = {
    value,
    warnings: [...read.warnings],
    errors: [...read.errors],
    pathOf: read.pathOf,
    carrier: 'hl7',
    ...(read.update ? { unscoped: true } : {}),
  };
  if (value.test === undefined && read.event !== 'MDL')
    adapted.errors.push({
      path: 'test',
      message: 'no battery (OM5) names this observation as a member; give --test ID',
    });
  for (const u of read.unheld) unheldRange(unheld, u.place, u.what, adapted);
  if (read.unheld.length > 0) leaveOut(adapted, read);
  if (read.event === 'MDL' && read.errors.length === 0) {
    adapted.skip = true;
    const named = typeof value.test === 'string' || typeof value.id === 'string';
    adapted.warnings.push({
      field: 'MFE-1',
      message: named
        ? 'MDL: deleted only by --prune (with --yes); left alone otherwise'
        : 'MDL: names no test (no M10 battery lists it and no --test) nor id, so nothing is deleted',
    });
    adapted.deletes = named;
  }
  return adapted;
}

/** The measure without its unheld ranges, each later range still named by its own HL7 place. */
function leaveOut(adapted: Adapted, read: FromHl7): void {
  const kept = new Map<string, number[]>();
  for (const list of ['referenceRanges', 'panicRanges'] as const) {
    const ranges = read.value[list];
    if (!Array.isArray(ranges)) continue;
    const gone = new Set(read.unheld.filter((u) => u.list === list).map((u) => u.index));
    const indices = ranges.map((_, i) => i).filter((i) => !gone.has(i));
    kept.set(list, indices);
    if (indices.length > 0) adapted.value[list] = indices.map((i) => ranges[i]);
    else delete adapted.value[list];
  }
  adapted.pathOf = (p) =>
    read.pathOf(
      p.replace(/^(referenceRanges|panicRanges)\[(\d+)\]/, (whole, list: string, i: string) => {
        const old = kept.get(list)?.[Number(i)];
        return old === undefined ? whole : `${list}[${old}]`;
      }),
    );
}
