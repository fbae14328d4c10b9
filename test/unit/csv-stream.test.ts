// Covers: src/formats/csv/catalog.ts src/formats/record-stream.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Ctx } from '../../src/context.js';
import { parseCatalogCsv } from '../../src/formats/csv/catalog.js';
import { forEachRecord } from '../../src/formats/record-stream.js';
import type { SourceRecord } from '../../src/formats/records.js';
import { tempDir } from '../helpers/tmp.js';

const NUMBER_RULE = 'must be a number: an optional minus sign, digits and at most one decimal point, as in -3.5';

// A CSV catalog file is read twice (csv/stream.ts) so memory holds keys, not the sheet; stdin is read whole.
// Both readings must give the same records, in the same order, with the same errors.

const header = 'test,name,type,unit,range,sex,min,max';
const row = (i: number, range: string, sex: string) =>
  `tst_${i % 7},Measure ${i},numeric,mmol/L,${range},${sex},3.5,5.1`;

async function streamed(dir: string, name: string, text: string) {
  await writeFile(join(dir, name), text);
  const ctx = { cwd: dir } as Ctx;
  const out: { record: SourceRecord; pauses: number }[] = [];
  let pauses = 0;
  await forEachRecord(
    ctx,
    [name],
    (record) => out.push({ record, pauses }),
    () => {
      pauses++;
      return undefined;
    },
  );
  return { records: out.map((o) => o.record), pauses, out };
}

const plain = (rs: SourceRecord[]) => rs.map(({ cellOf: _c, ...r }) => r);

describe('a CSV catalog read from a file', () => {
  it('hands each measure on once its last row is read, long before the end of a large sheet', async () => {
    const dir = await tempDir();
    const lines = [header];
    for (let i = 0; i < 3000; i++)
      lines.push(row(i, 'reference', 'male'), row(i, 'reference', 'female'), row(i, 'panic', 'all'));
    const text = `${lines.join('\r\n')}\r\n`;
    const { records, out } = await streamed(dir, 'big.csv', text);
    expect(records).toHaveLength(3000);
    // The first measure was handed on while the second reading was still at its first 64 KB piece.
    const secondReadingStarts = out[0].pauses;
    expect(out.findIndex((o) => o.pauses > secondReadingStarts)).toBeGreaterThan(0);
    expect(plain(records)).toEqual(plain(parseCatalogCsv(text, 'big.csv')));
  });

  it('groups rows that are apart, in the order measures first appear, as the whole-text reading does', async () => {
    const dir = await tempDir();
    const text = [
      header,
      row(1, 'reference', 'male'),
      row(2, 'reference', 'all'),
      row(3, 'panic', 'all'),
      row(1, 'panic', 'all'),
      row(2, 'panic', 'all'),
      '',
    ].join('\n');
    const { records } = await streamed(dir, 'apart.csv', text);
    expect(records.map((r) => [r.value.name, r.position, r.line])).toEqual([
      ['Measure 1', 1, 2],
      ['Measure 2', 2, 3],
      ['Measure 3', 3, 4],
    ]);
    expect(records[0].value.panicRanges).toEqual([{ sex: 'all', min: 3.5, max: 5.1 }]);
    expect(plain(records)).toEqual(plain(parseCatalogCsv(text, 'apart.csv')));
    expect(records[0].cellOf?.('panicRanges[0].max')).toEqual({ place: 'apart.csv:5:8', line: 5, column: 8 });
    expect(records[0].cellOf?.('referenceRanges[0].ageMin')?.place).toBe('apart.csv:2:5');
  });

  it('gives the same errors as the whole-text reading, each with the measure of its row', async () => {
    const dir = await tempDir();
    const text = [
      header,
      row(1, 'reference', 'male'),
      'tst_1,Measure 1,numeric,mg/dL,panic,all,x,5',
      'tst_2,B,numeric,mg/dL,low,all,1,2',
      '',
    ].join('\n');
    const whole = parseCatalogCsv(text, 'bad.csv');
    const { records } = await streamed(dir, 'bad.csv', text);
    expect(plain(records)).toEqual(plain(whole));
    expect(records.map((r) => [r.value.name, r.problems?.map((p) => [p.text, p.line, p.column]), r.unread])).toEqual([
      [
        'Measure 1',
        [
          ['bad.csv:3:4 (Measure 1): unit: "mg/dL" differs from line 2 of the same measure', 3, 4],
          [`bad.csv:3:7 (Measure 1): min: ${NUMBER_RULE} (got "x")`, 3, 7],
        ],
        ['panicRanges[0]'],
      ],
      ['B', [['bad.csv:4:5 (B): range: must be reference or panic (or critical) (got "low")', 4, 5]], []],
    ]);
  });
});
