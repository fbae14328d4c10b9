import { quoted } from '../../core/problems.js';
import { UsageError } from '../../errors.js';

// HL7 v2's encoding rules (v2.5.1 chapter 2, 2.5 and 2.7): segments end in a carriage return (a file may
// end them in \n or \r\n, as editors save them); MSH-1 is the field separator and MSH-2 the component,
// repetition, escape and subcomponent characters, in that order; FHS and BHS declare them the same way for
// a batch file. A value is split on the raw text first and unescaped after, so an escaped separator stays
// inside its value.

interface Separators {
  field: string;
  component: string;
  repetition: string;
  escape: string;
  subcomponent: string;
  /** MSH-18, the message's character set, in which `\Xhh\` bytes are read: empty is ASCII (table 0211). */
  charset?: string;
}

/** A field: its repetitions, each a list of components, each a list of subcomponents (raw, still escaped). */
export type Field = string[][][];

/**
 * One segment: its raw text, split into fields when first read. A file's segments are held as text (about
 * their size), and a record's split fields only while it is read: forget() lets them go, so memory follows
 * the input's bytes, not the many small arrays its values split into.
 */
export class Segment {
  private split: Field[] | undefined;
  constructor(
    readonly name: string,
    /** 1-based among the file's segments, as an interface engine's log counts them. */
    readonly number: number,
    /** 1-based line of the file (a line per segment). */
    readonly line: number,
    private readonly raw: string,
    readonly separators: Separators,
  ) {}

  /** fields[1] is SEG-1; fields[0] is unused. For MSH/FHS/BHS, fields[1] is the field separator itself. */
  get fields(): Field[] {
    this.split ??= splitFields(this.raw, this.separators, HEADERS.has(this.name));
    return this.split;
  }

  /** Lets go of the split fields; they are split again from the text if read again. */
  forget(): void {
    this.split = undefined;
  }
}

export const DEFAULT_SEPARATORS: Separators = {
  field: '|',
  component: '^',
  repetition: '~',
  escape: '\\',
  subcomponent: '&',
};

export const HEADERS = new Set(['MSH', 'FHS', 'BHS']);
const NAME = /^[A-Z][A-Z0-9]{2}$/;
/** A segment longer than this is not a master file's: it is refused before it is split. */
const MAX_SEGMENT = 1 << 20;

/** Whether a text looks like HL7 v2: its first segment is a message, file or batch header. */
export function looksLikeHl7(text: string): boolean {
  return /^\uFEFF?(MSH|FHS|BHS)[^A-Za-z0-9\r\n]/.test(text);
}

/** The separators a header segment declares, or an error naming what is wrong with them. */
function declared(raw: string, source: string, number: number): Separators {
  const field = raw[3];
  const encoding = raw.slice(4, raw.indexOf(field, 4) === -1 ? undefined : raw.indexOf(field, 4));
  const chars = [field, ...encoding.slice(0, 4)];
  const bad = encoding.length < 4 || new Set(chars).size !== 5 || chars.some((c) => /[A-Za-z0-9\s]/.test(c));
  if (bad)
    throw new UsageError(
      `${source} segment ${number} (${raw.slice(0, 3)}): ${raw.slice(0, 3)}-2 must declare four distinct ` +
        `encoding characters after the field separator (as ^~\\&), found ${quoted(encoding)}`,
    );
  return { field, component: encoding[0], repetition: encoding[1], escape: encoding[2], subcomponent: encoding[3] };
}

/**
 * The segments of an HL7 v2 text, each split into fields, repetitions, components and subcomponents with
 * the separators its header declared. Blank lines are passed over; a line that is no segment is an error
 * naming its number.
 */
export function segments(text: string, source: string): Segment[] {
  const body = text.replace(/^\uFEFF/, '');
  const out: Segment[] = [];
  let seps: Separators | undefined;
  let line = 0;
  for (const raw of body.split(/\r\n|\r|\n/)) {
    line++;
    if (raw.trim() === '') continue;
    const number = out.length + 1;
    const name = raw.slice(0, 3);
    if (raw.length > MAX_SEGMENT)
      throw new UsageError(`${source} segment ${number} (line ${line}): longer than ${MAX_SEGMENT} characters`);
    if (!NAME.test(name))
      throw new UsageError(
        `${source} segment ${number} (line ${line}): expected a segment name of three capitals or digits, ` +
          `found "${raw.slice(0, 12)}"`,
      );
    if (HEADERS.has(name)) seps = declared(raw, source, number);
    if (!seps)
      throw new UsageError(
        `${source} segment ${number} (line ${line}): ${name} comes before any MSH, FHS or BHS ` +
          'that declares the separators',
      );
    if (raw.length > 3 && raw[3] !== seps.field)
      throw new UsageError(
        `${source} segment ${number} (line ${line}): expected the field separator "${seps.field}" after ${name}`,
      );
    let segment = new Segment(name, number, line, raw, seps);
    // A message's character set (MSH-18, its first repetition) reads the hex escapes of every segment after it.
    if (name === 'MSH') {
      seps = { ...seps, charset: (segment.fields[18]?.[0]?.[0]?.[0] ?? '').trim() };
      segment = new Segment(name, number, line, raw, seps);
    }
    out.push(segment);
  }
  return out;
}

function splitFields(raw: string, s: Separators, header: boolean): Field[] {
  const parts = raw.split(s.field);
  const fields: Field[] = [[]];
  if (header) {
    // SEG-1 is the separator itself and SEG-2 the encoding characters: neither is split or unescaped.
    fields.push([[[s.field]]], [[[parts[1] ?? '']]]);
    parts.splice(0, 2);
  } else parts.shift();
  for (const p of parts)
    fields.push(p.split(s.repetition).map((rep) => rep.split(s.component).map((c) => c.split(s.subcomponent))));
  return fields;
}

/** A value's text with HL7's escape sequences read; an escape HL7 defines for display only is dropped. */
export function unescapeHl7(value: string, s: Separators, at: () => string): string {
  if (!value.includes(s.escape)) return value;
  let out = '';
  let i = 0;
  while (i < value.length) {
    const c = value[i];
    if (c !== s.escape) {
      out += c;
      i++;
      continue;
    }
    const end = value.indexOf(s.escape, i + 1);
    if (end === -1) throw new UsageError(`${at()}: an escape sequence is not closed: "${value.slice(i, i + 40)}"`);
    const code = value.slice(i + 1, end);
    out += escaped(code, s, at);
    i = end + 1;
  }
  return out;
}

function escaped(code: string, s: Separators, at: () => string): string {
  switch (code) {
    case 'F':
      return s.field;
    case 'S':
      return s.component;
    case 'T':
      return s.subcomponent;
    case 'R':
      return s.repetition;
    case 'E':
      return s.escape;
    // Highlighting on and off (2.7.2): a display hint with no text of its own.
    case 'H':
    case 'N':
      return '';
    case '.br':
      return '\n';
  }
  if (/^X([0-9A-Fa-f]{2})+$/.test(code)) return hexText(code, s.charset ?? '', at);
  throw new UsageError(
    `${at()}: unknown escape sequence "${s.escape}${code.slice(0, 40)}${s.escape}" ` +
      `(HL7 v2 defines F, S, T, R, E, X, H, N and .br)`,
  );
}

/** HL7 table 0211's character sets clinadmin reads `\Xhh\` in, as the WHATWG encodings that decode them. */
const CHARSETS: Record<string, string> = {
  '': 'ascii',
  ASCII: 'ascii',
  '8859/1': 'latin1',
  '8859/2': 'iso-8859-2',
  '8859/3': 'iso-8859-3',
  '8859/4': 'iso-8859-4',
  '8859/5': 'iso-8859-5',
  '8859/6': 'iso-8859-6',
  '8859/7': 'iso-8859-7',
  '8859/8': 'iso-8859-8',
  '8859/15': 'iso-8859-15',
  'UNICODE UTF-8': 'utf-8',
};

/**
 * The bytes of `\Xhh…\` as text in the message's character set (MSH-18, 2.7.3): `\XE9\` is é in 8859/1.
 * Bytes that are no text in it (0x80 and up in ASCII, a C1 control in ISO 8859, a broken UTF-8 sequence)
 * are an error naming the value, never U+FFFD.
 */
function hexText(code: string, charset: string, at: () => string): string {
  const bytes = Buffer.from(code.slice(1), 'hex');
  const name = CHARSETS[charset];
  const refuse = (why: string) => new UsageError(`${at()}: the escape \\${code.slice(0, 40)}\\ ${why}`);
  if (name === undefined)
    throw refuse(
      `cannot be read: MSH-18 names the character set "${charset.slice(0, 40)}", not one of ` +
        Object.keys(CHARSETS).filter(Boolean).join(', '),
    );
  const what = charset === '' ? 'ASCII (MSH-18 is empty)' : charset;
  // C0 controls are text of every set (our export writes a line break so); C1 controls and ASCII's upper
  // half are not.
  if (name === 'ascii' ? bytes.some((b) => b > 0x7f) : name !== 'utf-8' && bytes.some((b) => b >= 0x80 && b <= 0x9f))
    throw refuse(`holds bytes that are no text in ${what}`);
  try {
    return new TextDecoder(name === 'ascii' ? 'utf-8' : name, { fatal: true }).decode(bytes);
  } catch {
    throw refuse(`holds bytes that are no text in ${what}`);
  }
}

/**
 * Characters some reader takes for the end of a line or segment: C0 controls, DEL, C1 controls (U+0085, NEL,
 * among them), and the Unicode line and paragraph separators, at which python-hl7 (str.splitlines) and
 * JavaScript's line terminators split.
 */
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * A value with every separator, and anything that would end or break a segment, written as an escape: a
 * break as `\Xhh…\`, its bytes in UTF-8 (the file's encoding), which our reader decodes back (2.7.3).
 */
export function escapeHl7(value: string, s: Separators = DEFAULT_SEPARATORS): string {
  let out = '';
  for (const c of value) {
    if (c === s.escape) out += `${s.escape}E${s.escape}`;
    else if (c === s.field) out += `${s.escape}F${s.escape}`;
    else if (c === s.component) out += `${s.escape}S${s.escape}`;
    else if (c === s.subcomponent) out += `${s.escape}T${s.escape}`;
    else if (c === s.repetition) out += `${s.escape}R${s.escape}`;
    else if (BREAKS.test(c)) out += `${s.escape}X${Buffer.from(c, 'utf8').toString('hex').toUpperCase()}${s.escape}`;
    else out += c;
  }
  return out;
}
