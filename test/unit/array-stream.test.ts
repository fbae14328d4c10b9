// Covers: src/formats/json/array-stream.ts
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonArraySplitter, leadingId, parseElements } from '../../src/formats/json/array-stream.js';

/** The bytes of `text` in pieces cut at the given byte offsets (taken modulo its length). */
function pieces(text: string, cuts: number[]): Buffer[] {
  const bytes = Buffer.from(text);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  return out;
}

/** Feeds `text` to a splitter in pieces cut at the given byte offsets; returns the parsed elements. */
function split(text: string, cuts: number[]) {
  const s = new JsonArraySplitter();
  const out: unknown[] = [];
  for (const piece of pieces(text, cuts)) {
    for (const b of s.pushBytes(piece)) out.push(JSON.parse(b.toString('utf8')));
  }
  return { out, end: s.end() };
}

describe('JsonArraySplitter', () => {
  it('yields every element of any array, however the bytes are cut', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.array(fc.nat()), fc.boolean(), (values, cuts, pretty) => {
        // JSON.parse(JSON.stringify(v)) normalises -0 and the like, as the wire would.
        const expected = JSON.parse(JSON.stringify(values));
        const text = pretty ? JSON.stringify(values, null, 2) : JSON.stringify(values);
        const { out, end } = split(text, cuts);
        expect(out).toEqual(expected);
        expect(end).toEqual({ complete: true });
      }),
      { numRuns: 300 },
    );
  });

  it('handles strings holding brackets, quotes, escapes and multi-byte characters split across chunks', () => {
    const values = [{ n: 'a ] } , [ { "q" \\ ' }, 'Säuglinge – 血清', ['[', ']'], '\\"', 3, null];
    const text = JSON.stringify(values);
    for (let cut = 0; cut <= Buffer.byteLength(text); cut++) expect(split(text, [cut]).out).toEqual(values);
  });

  it('marks a compact object plain however the bytes are cut, and a pretty-printed one or a non-object not', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), fc.jsonValue())), fc.array(fc.nat()), (objects, cuts) => {
        const s = new JsonArraySplitter();
        const lines: string[] = [];
        for (const piece of pieces(JSON.stringify(objects), cuts)) {
          s.pushBytes(piece).forEach((e, k) => {
            expect(s.plain[k]).toBe(true);
            lines.push(e.toString('utf8'));
          });
        }
        // Each plain element is exactly JSON.stringify's text of the object: an NDJSON line as it stands.
        expect(lines).toEqual(objects.map((o) => JSON.stringify(o)));
      }),
      { numRuns: 200 },
    );
    const s = new JsonArraySplitter();
    s.pushBytes(Buffer.from('[{"a":\n1}, [1], 2, "x", {"b":xyz}, {"c":"\u0007"}, {"d": 1}]'));
    expect(s.plain).toEqual([false, false, false, false, false, false, true]);
  });

  it('hands back a body that is not an array whole, and tells a truncated array', () => {
    expect(split('{"items": [1, 2]}', [3]).end).toEqual({ complete: false, text: '{"items": [1, 2]}' });
    expect(split(' \n', [1]).end).toEqual({ complete: false, text: '' });
    const cut = split('[{"id":"a"},{"id":', [5]);
    expect(cut.out).toEqual([{ id: 'a' }]);
    expect(cut.end).toEqual({ complete: false, text: undefined });
  });
});

describe('JsonArraySplitter.malformed', () => {
  /** Whether the splitter takes `text` as one well-formed array of well-formed elements. */
  const accepts = (text: string, cuts: number[]) => {
    const s = new JsonArraySplitter();
    let parsed = true;
    for (const piece of pieces(text, cuts))
      for (const b of s.pushBytes(piece)) {
        try {
          JSON.parse(b.toString('utf8'));
        } catch {
          parsed = false;
        }
      }
    return parsed && !s.malformed && s.end().complete;
  };
  const isArray = (text: string) => {
    try {
      return Array.isArray(JSON.parse(text));
    } catch {
      return false;
    }
  };

  it('accepts exactly the texts JSON.parse reads as an array, whatever the separators and cuts', () => {
    const separator = fc.constantFrom(',', ', ', ',,', '', ' ', '\n,\n', ';');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.jsonValue(), separator)),
        fc.constantFrom('', ',', ' x', ']', '\n'),
        fc.array(fc.nat()),
        (parts, tail, cuts) => {
          const body = parts.map(([v, sep], i) => `${JSON.stringify(v)}${i < parts.length - 1 ? sep : ''}`).join('');
          const text = `[${body}]${tail}`;
          expect(accepts(text, cuts)).toBe(isArray(text));
        },
      ),
      { numRuns: 500 },
    );
    for (const bad of ['[,{"a":1}]', '[{"a":1},]', '[{"a":1}{"b":2}]', '[{"a":1}] x', '[1,,2]', '[{"a":1}]]'])
      expect(accepts(bad, [])).toBe(false);
    for (const good of ['[]', ' [ ] \n', '[{"a":1} , {"b":[1,2]}]\n', '["]", 1, null]'])
      expect(accepts(good, [])).toBe(true);
  });
});

describe('leadingId', () => {
  const id = (text: string) => leadingId(Buffer.from(text));
  it('reads the id a compact record opens with, multi-byte characters too', () => {
    expect(id('{"id":"ntf_1","title":"x"}')).toBe('ntf_1');
    expect(id('{"id":"ñtf-é","meta":{"id":"other"}}')).toBe('ñtf-é');
  });
  it('reads nothing from a record that does not open with its id, or whose id holds an escape', () => {
    expect(id('{"title":"x","id":"ntf_1"}')).toBeUndefined();
    expect(id('{ "id":"ntf_1"}')).toBeUndefined();
    expect(id('{"id":"nt\\"f"}')).toBeUndefined();
    expect(id('{"id":"ntf_1')).toBeUndefined();
    expect(id('{"id":7}')).toBeUndefined();
  });
});

describe('parseElements', () => {
  const bytes = (texts: string[]) => texts.map((t) => Buffer.from(t));

  it('gives what JSON.parse gives for each element alone, for any elements', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.boolean(), (values, pretty) => {
        const texts = values.map((v) => JSON.stringify(v, null, pretty ? 2 : undefined));
        const { records, malformed } = parseElements(bytes(texts));
        expect(malformed).toBe(false);
        expect(records).toEqual(texts.map((t) => JSON.parse(t)));
      }),
    );
  });

  it('keeps the records before the first element that is not JSON, and says so', () => {
    // Each bad element as JSON.parse refuses it alone: a trailing comma, a bare word, a lone quote's escape.
    for (const bad of ['{"a":1,}', 'tru', '"\\x"', '{"a":[1}]', '1 2']) {
      expect(() => JSON.parse(bad)).toThrow();
      const { records, malformed } = parseElements(bytes(['{"id":"a"}', '[1]', bad, '{"id":"b"}']));
      expect({ bad, records, malformed }).toEqual({ bad, records: [{ id: 'a' }, [1]], malformed: true });
    }
  });

  it('reads a piece over 1 MiB (a record near the cap among small ones) the same way', () => {
    const big = JSON.stringify({ id: 'big', note: 'x'.repeat(1.5 * 2 ** 20) });
    expect(parseElements(bytes(['{"id":"a"}', big, '2']))).toEqual({
      records: [{ id: 'a' }, JSON.parse(big), 2],
      malformed: false,
    });
    expect(parseElements(bytes([big, '{"id":"b",}', '3']))).toEqual({ records: [JSON.parse(big)], malformed: true });
  });
});
