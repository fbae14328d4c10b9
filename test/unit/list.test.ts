import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { col } from '../../src/output/columns.js';
import { ListWriter } from '../../src/output/list.js';
import { theme } from '../../src/output/theme.js';

/** A writer over memory, at `width` columns, for these columns. */
async function list(width: number) {
  let out = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  const columns = [col('id', 'ID'), col('test', 'TEST'), col('unit', 'UNIT')];
  const t = await theme(false);
  const w = new ListWriter(stream, columns, { width, headers: true, t, view: {} });
  return { w, out: () => out };
}

describe('a list written as it arrives', () => {
  it('sizes its columns from the records, whatever pieces with no whole record came first', async () => {
    const { w, out } = await list(200);
    // The client hands over each network chunk's records: the first chunks of a slow answer hold none.
    expect(w.add([])).toBe(true);
    expect(w.add([])).toBe(true);
    expect(out()).toBe('');
    w.add([{ id: 'msr_sodium', test: 'tst_basic_metabolic', unit: 'mmol/L' }]);
    w.add([]);
    w.add([{ id: 'msr_k', test: 'tst_bmp', unit: 'mEq/L' }]);
    w.end();
    expect(out().split('\n')).toEqual([
      'ID          TEST                 UNIT',
      'msr_sodium  tst_basic_metabolic  mmol/L',
      'msr_k       tst_bmp              mEq/L',
      '',
    ]);
  });
});
