// Covers: src/formats/records.ts
import { describe, expect, it } from 'vitest';
import { parseRecords, where } from '../../src/formats/records.js';

describe('parseRecords and where', () => {
  it('reads an array, one object, NDJSON and a wrapper object, remembering where each record was', () => {
    expect(parseRecords('[{"name":"a"},{"name":"b"}]', 'f.json').map((r) => [r.value, r.position])).toEqual([
      [{ name: 'a' }, 1],
      [{ name: 'b' }, 2],
    ]);
    expect(parseRecords('{"name":"a"}', 'one.json').map((r) => r.value)).toEqual([{ name: 'a' }]);
    const nd = parseRecords('{"name":"a"}\n\n{"name":"b"}\n', 'f.ndjson');
    expect(nd.map((r) => [r.value.name, r.line])).toEqual([
      ['a', 1],
      ['b', 3],
    ]);
    expect(parseRecords('{"diagnosticAnalyzers":[{"name":"w"}]}', 'w.json').map((r) => r.value)).toEqual([
      { name: 'w' },
    ]);
    expect(where({ source: 'f.ndjson', position: 2, line: 3 }, 'b')).toMatch(/f\.ndjson.*(line 3|record 2).*\(b\)/);
  });

  it('names the place of a syntax error and refuses what is not a record', () => {
    // An array's objects are parsed as the importer reaches them: the error comes with the record's value.
    const lazy = parseRecords('[{"name":"a"},\n  {"name": }]', 'bad.json');
    expect(lazy[0].value).toEqual({ name: 'a' });
    expect(() => lazy[1].value).toThrow(/bad\.json is not valid JSON: line 2, column \d+/);
    expect(() => parseRecords('{"name": "a",}', 'one.json')).toThrow(/one\.json is not valid JSON: line 1, column \d+/);
    expect(() => parseRecords('[1, {"name":"a"}]', 'nums.json')).toThrow(
      /nums\.json record 1: expected a JSON object, found number/,
    );
  });
});
