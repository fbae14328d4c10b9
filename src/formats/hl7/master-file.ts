import { UsageError } from '../../errors.js';
import { type Field, HEADERS, type Segment, segments, unescapeHl7 } from './syntax.js';

// The master file messages of HL7 v2.5.1 chapter 8 that carry a test catalog: MFN^M08 (numeric
// observations: MFE, OM1, OM2, OM3), M09 (categorical: MFE, OM1, OM3) and M10 (batteries: MFE, OM1, OM5),
// alone or in a batch (FHS, BHS … BTS, FTS). Each MFE starts a record; the OM segments after it belong to it.

const MESSAGE_TYPES = ['M08', 'M09', 'M10'] as const;

/** One record of a master file: the MFE and the OM segments that follow it. */
export interface MasterRecord {
  /** M08, M09 or M10: the message the record came in. */
  message: string;
  mfe: Segment;
  om: Map<string, Segment>;
  /** OM segments repeated within the record: only the first is read, the rest are named by lint. */
  repeated: Segment[];
  /** Its message's MFI-3 is UPD: changes to the records it names, not the whole file (table 0178). */
  update: boolean;
}

/** Reads a field's component (1-based, as HL7 numbers them: OM1-2.3 is field 2, component 3), unescaped. */
export function value(seg: Segment | undefined, field: number, component = 1, repetition = 0, sub = 1): string {
  const f: Field | undefined = seg?.fields[field];
  const raw = f?.[repetition]?.[component - 1]?.[sub - 1] ?? '';
  // A header's first two fields are the separators themselves, never escaped.
  if (!seg || (field <= 2 && HEADERS.has(seg.name))) return raw;
  return unescapeHl7(raw, seg.separators, () => at(seg, field));
}

/** A field's repetitions, each read by `read` at its index. */
export function repetitions<T>(seg: Segment | undefined, field: number, read: (rep: number) => T): T[] {
  const f = seg?.fields[field] ?? [];
  const out: T[] = [];
  for (let i = 0; i < f.length; i++) if (f[i].some((c) => c.some((s) => s !== ''))) out.push(read(i));
  return out;
}

/** `segment 12 (OM2-6)`: where a value stands, as an interface engine's log would name it. */
export const at = (seg: Segment, field?: number) =>
  `segment ${seg.number} (${seg.name}${field === undefined ? '' : `-${field}`})`;

/** The records of an HL7 v2 master file text, or an error naming the segment that cannot be read. */
export function masterRecords(text: string, source: string): MasterRecord[] {
  const out: MasterRecord[] = [];
  let message: string | undefined;
  let current: MasterRecord | undefined;
  let update = false;
  for (const seg of segments(text, source)) {
    switch (seg.name) {
      case 'FHS':
      case 'BHS':
      case 'BTS':
      case 'FTS':
        current = undefined;
        break;
      case 'MSH':
        message = messageType(seg, source);
        current = undefined;
        update = false;
        break;
      case 'MFI':
        update = value(seg, 3) === 'UPD';
        break;
      case 'MFA':
        break;
      case 'MFE':
        if (message === undefined) throw new UsageError(`${source} ${at(seg)}: MFE before any MSH`);
        current = { message, mfe: seg, om: new Map(), repeated: [], update };
        out.push(current);
        break;
      default:
        // Segments of a record: OM1–OM5, and any other (PRT, NTE, a Z segment) lint names.
        if (!current) {
          if (/^OM\d$/.test(seg.name)) throw new UsageError(`${source} ${at(seg)}: ${seg.name} before any MFE`);
          break;
        }
        if (current.om.has(seg.name)) current.repeated.push(seg);
        else current.om.set(seg.name, seg);
    }
  }
  if (out.length === 0 && message === undefined)
    throw new UsageError(`${source}: an HL7 v2 file with no MSH segment: no message to read`);
  return out;
}

/** MSH-9's trigger event, when it is a master file of observations; any other message is named and refused. */
function messageType(msh: Segment, source: string): string {
  const code = value(msh, 9, 1);
  const event = value(msh, 9, 2);
  if (code === 'MFN' && (MESSAGE_TYPES as readonly string[]).includes(event)) return event;
  const found = code ? `${code}${event ? `^${event}` : ''}` : 'no message type';
  throw new UsageError(
    `${source} ${at(msh, 9)}: ${found.slice(0, 60)} is not a master file of observations; ` +
      'clinadmin reads MFN^M08 (numeric), MFN^M09 (categorical) and MFN^M10 (batteries)',
  );
}
