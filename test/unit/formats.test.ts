import { describe, expect, it } from 'vitest';
import { toCsv, toNdjson, toYaml } from '../../src/output/formats.js';

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

  it('writes YAML that quotes what could be misread', () => {
    const yaml = toYaml([
      { id: 'x', flag: 'yes', n: 3, when: '2026-01-01', list: ['a', 'b'], nested: { k: 'v' }, empty: [] },
    ]);
    expect(yaml).toBe(
      '- id: x\n  flag: "yes"\n  n: 3\n  when: "2026-01-01"\n  list:\n  - a\n  - b\n  nested:\n    k: v\n  empty: []\n',
    );
  });
});
