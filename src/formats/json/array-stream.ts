// Byte classes, looked up once per byte: the loop below is the hot path of every long list.
// The classes are written as numbers in the loop: a named module constant is a load on every byte,
// where a literal compiles into the comparison (bench/notes.md has the measure).
//   0 ordinary, 1 quote, 2 open, 3 close, 4 comma, 5 space, 6 newline, 8 backslash, 9 control,
//   7 foreign: a byte no JSON token holds outside a string (the element then goes through JSON.parse).

/** Outside strings: structure, white space, and the bytes of numbers, true, false and null. */
const OUTSIDE = new Uint8Array(256).fill(7);
for (const c of ':0123456789+-.eEtrufalsn') OUTSIDE[c.charCodeAt(0)] = 0;
OUTSIDE[0x22] = 1;
OUTSIDE[0x7b] = 2;
OUTSIDE[0x5b] = 2;
OUTSIDE[0x7d] = 3;
OUTSIDE[0x5d] = 3;
OUTSIDE[0x2c] = 4;
OUTSIDE[0x20] = 5;
OUTSIDE[0x09] = 5;
OUTSIDE[0x0a] = 6;
OUTSIDE[0x0d] = 6;
const BOM = [0xef, 0xbb, 0xbf];
/** Inside strings: the quote that ends one, the escape, and control characters JSON forbids raw. */
const INSIDE = new Uint8Array(256);
INSIDE[0x22] = 1;
INSIDE[0x5c] = 8;
for (let c = 0; c < 0x20; c++) INSIDE[c] = 9;

/**
 * Splits a JSON array arriving in chunks into the bytes of each element, as soon as the element is whole,
 * so a list of any length is handled one record at a time. It works on bytes: every byte a structural
 * character or a quote can be is ASCII, and UTF-8 never uses those bytes inside a longer character.
 * Anything but an array (a wrapper object, an error body) is gathered whole and handed back by end().
 */
export class JsonArraySplitter {
  /** 0: before the first byte; 1: inside the array; 2: after its end; 3: not an array (gathered whole). */
  private state = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Pieces of the element in progress (or, when not an array, of the whole body). */
  private pieces: Buffer[] = [];
  /**
   * The bytes held in `pieces`: one element not yet whole, or a body that is not an array. The reader caps
   * it, as a peer could otherwise send one element that never ends.
   */
  heldBytes = 0;
  private inElement = false;
  /** The element in progress holds a byte that makes it unfit to pass on as it came (see `plain`). */
  private odd = false;
  /**
   * For each element the last pushBytes() returned: an object on one line, with nothing but JSON
   * tokens outside its strings and no raw control character inside them. Such an element may be
   * written out as it came, as one NDJSON line, without a parse; any other goes through JSON.parse.
   */
  plain: boolean[] = [];
  /**
   * The separators are not those of one JSON array: a comma missing, doubled or trailing, or something
   * other than white space after its end. Lists from a server are taken as they come; an input file
   * the user gave is refused for it (formats/record-stream.ts).
   */
  malformed = false;
  /** An element has ended and no comma has come since. */
  private afterElement = false;
  private sawElement = false;

  /** Feeds a chunk; returns the bytes of the elements it completed (views of the chunk where they fit). */
  pushBytes(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    this.plain = [];
    if (this.state === 3) {
      this.pieces.push(chunk);
      this.heldBytes += chunk.length;
      return out;
    }
    let i = 0;
    const n = chunk.length;
    if (this.state === 0) {
      // White space and a UTF-8 byte order mark may come before the array.
      while (i < n && (OUTSIDE[chunk[i]] === 5 || OUTSIDE[chunk[i]] === 6 || BOM.includes(chunk[i]))) i++;
      if (i === n) return out;
      if (chunk[i] !== 0x5b) {
        this.state = 3;
        this.pieces.push(chunk.subarray(i));
        this.heldBytes += n - i;
        return out;
      }
      this.state = 1;
      i++;
    }
    if (this.state === 2) {
      this.trailingFrom(chunk, i);
      return out;
    }
    let { depth, inString, escaped, inElement, odd } = this;
    let start = inElement ? 0 : -1;
    scan: for (; i < n; i++) {
      if (inString) {
        if (escaped) {
          escaped = false;
          continue;
        }
        // Most bytes of a record are inside strings: a tight loop runs to the next byte that matters.
        let c = INSIDE[chunk[i]];
        while (c === 0) {
          if (++i === n) break scan;
          c = INSIDE[chunk[i]];
        }
        if (c === 1) inString = false;
        else if (c === 8) escaped = true;
        else odd = true;
        continue;
      }
      const b = chunk[i];
      const c = OUTSIDE[b];
      if (!inElement) {
        if (c === 5 || c === 6) continue;
        if (c === 4) {
          if (!this.afterElement) this.malformed = true;
          this.afterElement = false;
          continue;
        }
        if (b === 0x5d) {
          if (!this.afterElement && this.sawElement) this.malformed = true;
          this.state = 2;
          break;
        }
        if (this.afterElement) this.malformed = true;
        this.sawElement = true;
        inElement = true;
        odd = b !== 0x7b;
        start = i;
      }
      if (c === 0) continue;
      if (c === 1) inString = true;
      else if (c === 2) depth++;
      else if (c === 3 || c === 4) {
        if (depth === 0) {
          // The end of a scalar element (`,` or `]` right after it).
          out.push(this.take(chunk, start, i));
          this.plain.push(false);
          inElement = false;
          this.afterElement = b !== 0x2c;
          if (b === 0x5d) {
            this.state = 2;
            break;
          }
          continue;
        }
        if (c === 4) continue;
        depth--;
        if (depth === 0) {
          out.push(this.take(chunk, start, i + 1));
          this.plain.push(!odd);
          inElement = false;
          this.afterElement = true;
        }
      } else if (c !== 5) odd = true;
    }
    if (inElement) {
      const rest = Buffer.from(chunk.subarray(Math.max(start, 0)));
      this.pieces.push(rest);
      this.heldBytes += rest.length;
    }
    if (this.state === 2) this.trailingFrom(chunk, i + 1);
    Object.assign(this, { depth, inString, escaped, inElement, odd });
    return out;
  }

  /**
   * Whether the body was a whole array; otherwise the gathered text to parse as a whole: the body that was
   * not an array, '' when nothing but white space came, or undefined for an array cut off.
   */
  end(): { complete: true } | { complete: false; text: string | undefined } {
    if (this.state === 2) return { complete: true };
    if (this.state === 3) return { complete: false, text: Buffer.concat(this.pieces).toString('utf8') };
    return { complete: false, text: this.state === 0 ? '' : undefined };
  }

  private trailingFrom(chunk: Buffer, i: number): void {
    for (; i < chunk.length && !this.malformed; i++)
      if (OUTSIDE[chunk[i]] !== 5 && OUTSIDE[chunk[i]] !== 6) this.malformed = true;
  }

  private take(chunk: Buffer, start: number, end: number): Buffer {
    const tail = chunk.subarray(Math.max(start, 0), end);
    if (this.pieces.length === 0) return tail;
    const whole = Buffer.concat([...this.pieces, tail]);
    this.pieces = [];
    this.heldBytes = 0;
    return whole;
  }
}

const COMMA = Buffer.from(',');
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');
/** Past this many bytes in one piece, its elements are parsed one by one (a copy would cost more than it saves). */
const BATCH_BYTES = 1024 * 1024;

/**
 * The splitter's elements parsed by one `JSON.parse` of them as an array: V8 reads objects of one shape
 * faster within one parse than in a parse each (bench/notes.md has the measure). When one element is not
 * JSON, they are parsed one by one instead: `records` holds those before it, and `malformed` is true.
 */
export function parseElements(elements: Buffer[]): { records: unknown[]; malformed: boolean } {
  // A large record (up to the 64 MiB cap) is parsed as it is, without a copy of it into an array's text.
  let bytes = 0;
  for (const e of elements) bytes += e.length;
  if (elements.length === 1 || bytes > BATCH_BYTES) return parseEach(elements);
  const parts: Buffer[] = [OPEN];
  for (const [i, bytes] of elements.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(bytes);
  }
  parts.push(CLOSE);
  try {
    const all: unknown = JSON.parse(Buffer.concat(parts).toString('utf8'));
    if (Array.isArray(all) && all.length === elements.length) return { records: all, malformed: false };
  } catch {
    // One of them is not JSON: found below, with the ones before it kept.
  }
  return parseEach(elements);
}

function parseEach(elements: Buffer[]): { records: unknown[]; malformed: boolean } {
  const records: unknown[] = [];
  for (const bytes of elements) {
    try {
      records.push(JSON.parse(bytes.toString('utf8')));
    } catch {
      return { records, malformed: true };
    }
  }
  return { records, malformed: false };
}

const ID_KEY = Buffer.from('{"id":"');

/**
 * The id of a compact record that opens with it (`{"id":"ntf_1",…`, as serve writes records), read from
 * its bytes without a parse; undefined for any other record, or an id holding an escape.
 */
export function leadingId(bytes: Buffer): string | undefined {
  if (bytes.length <= ID_KEY.length || bytes.compare(ID_KEY, 0, ID_KEY.length, 0, ID_KEY.length) !== 0) return;
  for (let i = ID_KEY.length; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x22) return bytes.toString('utf8', ID_KEY.length, i);
    if (b === 0x5c) return;
  }
  return;
}

/** Where ApiClient.stream hands a list's records: each as parsed, then batchEnd() after each piece of the answer. */
export interface ListSink {
  record(rec: unknown): void;
  /**
   * When given, a record that is plain (see JsonArraySplitter.plain) comes here as the bytes it
   * arrived in, unparsed: `-o ndjson` writes them as they are, so a long list costs no parse.
   */
  raw?(bytes: Buffer): void;
  /**
   * When given, a plain record for which it returns true is one the sink has already (`notifications
   * watch` knows it by its leading id): it is neither parsed nor handed on.
   */
  known?(bytes: Buffer): boolean;
  /** The records so far are handed on; false asks to pause the answer until drained() resolves. */
  batchEnd(): boolean;
  drained(): Promise<void>;
  /** When given and true after a page, the sink has what it came for: no next page is fetched. */
  done?(): boolean;
}
