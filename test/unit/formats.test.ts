// Covers: src/output/formats.ts src/output/yaml.ts src/formats/csv/write.ts
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { catalogCsv } from '../../src/formats/csv/write.js';
import { toCsv, toNdjson } from '../../src/output/formats.js';
import { toYaml } from '../../src/output/yaml.js';

describe('output formats', () => {
  it('writes RFC 4180 CSV, quoting what needs it and nesting as JSON', () => {
    const csv = toCsv(
      [{ id: 'a', name: 'Glucose, fasting', note: 'say "hi"', sets: ['x', 'y'] }, { id: 'b' }],
      ['id', 'name', 'note', 'sets'],
    );
    expect(csv).toBe('id,name,note,sets\r\na,"Glucose, fasting","say ""hi""","[""x"",""y""]"\r\nb,,,\r\n');
  });

  it('writes one JSON value a line for NDJSON', () => {
    expect(toNdjson([{ a: 1 }, { b: 2 }])).toBe('{"a":1}\n{"b":2}\n');
    expect(toNdjson([])).toBe('');
    expect(toNdjson({ a: 1 })).toBe('{"a":1}\n');
  });

  it('writes YAML that no 1.1 or 1.2 reader misreads: yes, on and dates stay text', () => {
    const records = [
      { id: 'x', flag: 'yes', on: 'on', n: 3, when: '2026-01-01', octal: '010', list: ['a', 'b'], nested: { k: 'v' } },
    ];
    const yaml = toYaml(records);
    for (const version of ['1.1', '1.2'] as const) expect(parseYaml(yaml, { version })).toEqual(records);
    expect(yaml).toContain('flag: "yes"\n');
    expect(yaml).toContain('when: "2026-01-01"\n');
    // Found by the round-trip property test: a key `<<` is a merge to a 1.1 reader, `0o7` an octal to a
    // 1.2 one, `e0` a float to the yaml package's 1.1 schema; each is quoted.
    const tricky = [{ '<<': false, a: '0o7', e0: 'e0', y: 'y' }];
    for (const version of ['1.1', '1.2'] as const) expect(parseYaml(toYaml(tricky), { version })).toEqual(tricky);
    expect(yaml.startsWith('- id: x\n')).toBe(true);
    // Long text is not folded onto more lines.
    expect(toYaml({ body: 'word '.repeat(40).trim() }).split('\n')).toHaveLength(2);
  });

  // Where Python's str.splitlines breaks (docs.python.org/3/library/stdtypes.html#str.splitlines), as
  // python-hl7 and many line readers do; JavaScript's line terminators are among them.
  const PY_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;
  const BREAKING = 'a\u2028b\u2029c\u0085d';

  it('writes NDJSON that every line reader splits into its records alone', () => {
    const text = toNdjson([{ name: BREAKING }, { name: 'x' }]);
    const lines = text.split(PY_BREAK).filter((l) => l !== '');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([{ name: BREAKING }, { name: 'x' }]);
  });

  it('quotes a CSV cell holding any line break a reader may split at (RFC 4180 quoting)', () => {
    for (const c of ['\v', '\f', '\x1c', '\x85', '\u2028', '\u2029'])
      expect(toCsv([{ name: `a${c}b` }], ['name'])).toBe(`name\r\n"a${c}b"\r\n`);
    const catalog = catalogCsv([{ test: 't', name: BREAKING, type: 'numeric' }]);
    expect(catalog).toContain(`"${BREAKING}"`);
  });

  it('writes YAML whose quoted text holds no line break a YAML 1.1 reader would fold (NEL, LS, PS)', () => {
    const text = toYaml({ name: BREAKING, [BREAKING]: 1 });
    expect(text).not.toMatch(/[\u0085\u2028\u2029]/);
    // \N, \L and \P: the escapes YAML 1.1 (5.2) and 1.2 (5.7) define for the three.
    expect(text).toContain('a\\Lb\\Pc\\Nd');
    expect(parseYaml(text)).toEqual({ name: BREAKING, [BREAKING]: 1 });
  });
});
