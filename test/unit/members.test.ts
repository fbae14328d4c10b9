import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonArraySplitter } from '../../src/json/array-stream.js';
import { memberPicker, type Read } from '../../src/json/members.js';

// A table reads a few fields of each record from the record's bytes (json/members.ts). JSON.parse is the
// oracle: whatever is read must be what JSON.parse makes of the same member (RFC 8259), and a record the
// reader cannot vouch for comes back undefined, to be parsed whole.

/** Splits `text` (a JSON array) with members noted, in pieces cut at `cuts`; each element with its commas. */
function elements(text: string, cuts: number[] = []) {
  const bytes = Buffer.from(text);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const s = new JsonArraySplitter(true);
  const out: { bytes: Buffer; commas: number[] | undefined }[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    const done = s.pushBytes(bytes.subarray(from, p));
    for (let k = 0; k < done.length; k++) {
      out.push({ bytes: Buffer.from(done[k]), commas: s.plain[k] ? s.members[k] : undefined });
    }
    from = p;
  }
  return out;
}

/** What a reader of `reads` must get from a record JSON.parse made: the fields named, a `first` list shortened. */
function expected(record: Record<string, unknown>, reads: Read[]) {
  const out: Record<string, unknown> = {};
  for (const { field, first } of reads) {
    if (!Object.hasOwn(record, field)) continue;
    const v = record[field];
    const whole = reads.some((r) => r.field === field && !r.first);
    const objects =
      Array.isArray(v) && v.length > 0 && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x));
    out[field] = first && !whole && objects ? [v[0], ...v.slice(1).map(() => ({}))] : v;
  }
  return out;
}

const pick = (text: string, reads: Read[]) => {
  const [e] = elements(`[${text}]`);
  return e.commas ? memberPicker(reads)(e.bytes, e.commas) : undefined;
};

describe('memberPicker', () => {
  it('reads what JSON.parse reads, for any record cut anywhere, or leaves it to JSON.parse', () => {
    const key = fc.oneof(fc.constantFrom('id', 'name', 'unit', 'ranges', 'a', 'ab', 'b'), fc.string({ maxLength: 4 }));
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.array(fc.dictionary(key, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(key, value, { maxKeys: 6 }), { maxLength: 4 }),
        fc.array(fc.record({ field: key, first: fc.boolean() }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat()),
        (records, reads, cuts) => {
          const text = JSON.stringify(records);
          const read = memberPicker(reads);
          const parsed = JSON.parse(text) as Record<string, unknown>[];
          const found = elements(text, cuts);
          expect(found).toHaveLength(parsed.length);
          found.forEach((e, k) => {
            if (!e.commas) return;
            const got = read(e.bytes, e.commas);
            if (got !== undefined) expect(got).toEqual(expected(parsed[k], reads));
          });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('reads a served measure for its table columns, however its bytes are cut', () => {
    const measure = {
      id: 'msr_1',
      createdAt: 1790000000000,
      test: 'tst_1',
      name: 'Sodium',
      type: 'numeric',
      unit: 'mmol/L',
      siunit: 'mmol/L',
      referenceRanges: [
        { id: 'rr_1', min: 3.5, minPrecision: 1, max: 5.1, sex: 'male' },
        { id: 'rr_2', min: 3.4, max: 5, sex: 'female' },
      ],
      panicRanges: [{ min: 2.5, max: 6.5 }],
    };
    const text = JSON.stringify([measure, measure]);
    const reads: Read[] = [
      { field: 'id' },
      { field: 'name' },
      { field: 'createdAt' },
      { field: 'referenceRanges', first: true },
      { field: 'unit' },
    ];
    for (let cut = 0; cut <= text.length; cut++) {
      for (const e of elements(text, [cut])) {
        expect(memberPicker(reads)(e.bytes, e.commas!)).toEqual({
          id: 'msr_1',
          name: 'Sodium',
          createdAt: 1790000000000,
          referenceRanges: [measure.referenceRanges[0], {}],
          unit: 'mmol/L',
        });
      }
    }
  });

  it('takes the last of two members of one name, as JSON.parse does, and white space around tokens', () => {
    expect(pick('{"name":"first","id":1,"name":"last"}', [{ field: 'name' }])).toEqual({ name: 'last' });
    expect(pick('{ "id" : 7 , "name"\t:\t"x" }', [{ field: 'id' }, { field: 'name' }])).toEqual({ id: 7, name: 'x' });
  });

  it('leaves to JSON.parse a record with an escape, outside ASCII, or a named member it cannot read', () => {
    const reads = [{ field: 'name' }];
    // An escape anywhere (a name may be written `n\u0061me`): the splitter notes no members.
    expect(elements('[{"n\\u0061me":"x","name":"y"}]')[0].commas).toBeUndefined();
    expect(elements('[{"id":"a\\"b"}]')[0].commas).toBeUndefined();
    expect(pick('{"name":"Säule"}', reads)).toBeUndefined();
    expect(pick('{"name" "x"}', reads)).toBeUndefined();
    expect(pick('{"name":tru}', reads)).toBeUndefined();
    expect(pick('{"name":"a" "b"}', reads)).toBeUndefined();
    expect(pick('{"name":"x",}', reads)).toBeUndefined();
    // `__proto__` as a plain assignment would set the prototype: never read this way.
    expect(pick('{"__proto__":{"a":1}}', [{ field: '__proto__' }])).toBeUndefined();
  });

  it('reads an empty object, and a first item only where every item is an object', () => {
    expect(pick('{}', [{ field: 'a' }])).toEqual({});
    expect(pick('{ }', [{ field: 'a' }])).toEqual({});
    const first = [{ field: 'r', first: true }];
    expect(pick('{"r":[]}', first)).toEqual({ r: [] });
    expect(pick('{"r":[ {"a":1} , {"b":[1,2]} ]}', first)).toEqual({ r: [{ a: 1 }, {}] });
    expect(pick('{"r":[{"a":1},2]}', first)).toEqual({ r: [{ a: 1 }, 2] });
    expect(pick('{"r":[1,{"a":1}]}', first)).toEqual({ r: [1, { a: 1 }] });
    expect(pick('{"r":{"a":1,"b":2}}', first)).toEqual({ r: { a: 1, b: 2 } });
    expect(pick('{"r":"x"}', first)).toEqual({ r: 'x' });
  });
});
