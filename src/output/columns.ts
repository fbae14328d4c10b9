import { formatRange, type RangeLike } from '../core/ranges.js';

type Rec = Record<string, unknown>;

export interface Column {
  key: string;
  header: string;
  value: (r: Rec, view: View) => string;
  /** Shown by default in a table. */
  shown?: boolean;
}

export interface View {
  account?: string;
  seenMark: (seen: boolean | undefined) => string;
}

const text = (key: string) => (r: Rec) =>
  r[key] === undefined || r[key] === null ? '' : typeof r[key] === 'object' ? JSON.stringify(r[key]) : String(r[key]);
export const col = (key: string, header = key, shown = false): Column => ({ key, header, value: text(key), shown });

/** Columns named as their keys and all shown: for records without a column list of their own. */
export const textColumns = (keys: string[]): Column[] => keys.map((key) => col(key, key, true));

export function localTime(ms: unknown): string {
  if (typeof ms !== 'number') return '';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export const MEASURE_COLUMNS: Column[] = [
  col('id', 'ID', true),
  col('test', 'TEST', true),
  col('name', 'NAME', true),
  col('type', 'TYPE', true),
  col('unit', 'UNIT', true),
  {
    key: 'referenceRanges',
    header: 'REFERENCE RANGES',
    shown: true,
    value: (r) =>
      ((r.referenceRanges as RangeLike[] | undefined) ?? [])
        .map((x) => formatRange(x, r.unit as string | undefined, r.siunit as string | undefined))
        .join('\n'),
  },
  {
    key: 'panicRanges',
    header: 'PANIC RANGES',
    value: (r) =>
      ((r.panicRanges as RangeLike[] | undefined) ?? [])
        .map((x) => formatRange(x, r.unit as string | undefined, r.siunit as string | undefined))
        .join('\n'),
  },
  col('siunit', 'SI UNIT'),
  col('set', 'SET'),
  col('sets', 'SETS'),
  col('description', 'DESCRIPTION'),
  col('choices', 'CHOICES'),
  col('hl7IdentifierCod', 'HL7 CODE'),
  col('hl7IdentifierSys', 'HL7 SYSTEM'),
  col('numericBreakdownMin', 'BREAKDOWN MIN'),
  col('numericBreakdownMax', 'BREAKDOWN MAX'),
  col('account', 'ACCOUNT'),
  col('facility', 'FACILITY'),
  col('section', 'SECTION'),
  { key: 'createdAt', header: 'CREATED', value: (r) => localTime(r.createdAt) },
  col('createdBy', 'CREATED BY'),
];

export const COVERAGE_COLUMNS: Column[] = [
  col('id', 'ID', true),
  col('contract', 'CONTRACT', true),
  col('name', 'NAME', true),
  col('type', 'TYPE', true),
  col('paymentMethod', 'PAYMENT', true),
  {
    key: 'amount',
    header: 'AMOUNT / %',
    shown: true,
    value: (r) =>
      [r.amount !== undefined ? String(r.amount) : '', r.percentage !== undefined ? `${r.percentage} %` : '']
        .filter(Boolean)
        .join(' + '),
  },
  { key: 'ref', header: 'APPLIES TO', shown: true, value: (r) => (r.ref ? `${r.refType ?? 'ref'}: ${r.ref}` : '') },
  col('percentage', 'PERCENTAGE'),
  col('refType', 'REF TYPE'),
  col('insured', 'INSURED'),
  col('insurer', 'INSURER'),
  col('insurerType', 'INSURER TYPE'),
  col('insurerSubtype', 'INSURER SUBTYPE'),
  { key: 'createdAt', header: 'CREATED', value: (r) => localTime(r.createdAt) },
  col('createdBy', 'CREATED BY'),
];

export const NOTIFICATION_COLUMNS: Column[] = [
  col('id', 'ID', true),
  { key: 'createdAt', header: 'TIME', shown: true, value: (r) => localTime(r.createdAt) },
  col('type', 'TYPE', true),
  col('code', 'CODE', true),
  col('title', 'TITLE', true),
  {
    key: 'seenBy',
    header: 'SEEN',
    shown: true,
    value: (r, view) =>
      view.seenMark(view.account ? ((r.seenBy as string[] | undefined) ?? []).includes(view.account) : undefined),
  },
  col('body', 'BODY'),
  col('meta', 'META'),
];
