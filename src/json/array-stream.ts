/**
 * Splits a JSON array arriving in chunks into the text of each element, as soon as the element is whole,
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
  private inElement = false;

  /** Feeds a chunk; returns the texts of the elements it completed. */
  push(chunk: Buffer): string[] {
    if (this.state === 3) {
      this.pieces.push(chunk);
      return [];
    }
    const out: string[] = [];
    let start = this.inElement ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.state === 0) {
        if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) continue;
        if (b === 0xef && i === 0) continue; // the first byte of a UTF-8 BOM; the rest are skipped below
        if (b === 0xbb || b === 0xbf) continue;
        if (b !== 0x5b) {
          this.state = 3;
          this.pieces.push(chunk.subarray(i));
          return out;
        }
        this.state = 1;
        continue;
      }
      if (this.state === 2) continue;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === 0x5c) this.escaped = true;
        else if (b === 0x22) this.inString = false;
        continue;
      }
      if (!this.inElement) {
        if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x2c) continue;
        if (b === 0x5d) {
          this.state = 2;
          continue;
        }
        this.inElement = true;
        start = i;
      }
      if (b === 0x22) this.inString = true;
      else if (b === 0x7b || b === 0x5b) this.depth++;
      else if (b === 0x7d || b === 0x5d || b === 0x2c) {
        if (this.depth === 0) {
          // The end of a scalar element (`,` or `]` right after it).
          out.push(this.take(chunk, start, i));
          if (b === 0x5d) this.state = 2;
          continue;
        }
        if (b !== 0x2c) this.depth--;
        if (this.depth === 0 && b !== 0x2c) out.push(this.take(chunk, start, i + 1));
      }
    }
    if (this.inElement) this.pieces.push(Buffer.from(chunk.subarray(Math.max(start, 0))));
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

  private take(chunk: Buffer, start: number, end: number): string {
    const tail = chunk.subarray(Math.max(start, 0), end);
    const text =
      this.pieces.length === 0 ? tail.toString('utf8') : Buffer.concat([...this.pieces, tail]).toString('utf8');
    this.pieces = [];
    this.inElement = false;
    return text;
  }
}

/** Where ApiClient.stream hands a list's records: each as parsed, then batchEnd() after each piece of the answer. */
export interface ListSink {
  record(rec: unknown): void;
  /** The records so far are handed on; false asks to pause the answer until drained() resolves. */
  batchEnd(): boolean;
  drained(): Promise<void>;
}
