// Covers: src/output/list.ts src/output/columns.ts
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { col } from '../../src/output/columns.js';
import { ListWriter } from '../../src/output/list.js';
import { displayWidth } from '../../src/output/text.js';
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

describe('one long value among many (issue 64)', () => {
  it("takes no other row's room: the title keeps 30 characters, that row runs late and still fits", async () => {
    const { Writable } = await import('node:stream');
    const { renderList } = await import('../../src/output/list.js');
    const { columnsOf } = await import('../../src/output/columns.js');
    const { notifications } = await import('../../src/resources/index.js');
    const { theme } = await import('../../src/output/theme.js');
    const t = await theme(false);
    let out = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    const at = new Date(2026, 10, 27, 4, 17).getTime();
    // An id of 20 characters, too short to be shown as a prefix, among thirty of 11.
    const rows = Array.from({ length: 30 }, (_, i) => ({
      id: i === 7 ? 'ntf_queue_item_00007' : `ntf_q_${String(i).padStart(5, '0')}`,
      createdAt: at,
      type: 'warehouse',
      code: 'stock-low',
      title: `Stock low: urine collection cups at the central lab ${i}`,
      seenBy: [],
    }));
    renderList(
      stream,
      rows,
      columnsOf(notifications).filter((c) => c.shown),
      {
        width: 80,
        headers: true,
        t,
        view: { account: 'acc_me' },
      },
    );
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID {11}TIME/);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    // The other rows' titles keep 30 characters and SEEN stays: the id column is as wide as the others.
    for (const line of lines.filter((l) => !l.startsWith('ntf_queue_item'))) {
      if (line.startsWith('ID')) continue;
      expect(line).toMatch(/Stock low: urine collection cu\S*… {2}new$/);
    }
    // The long one whole, its row late by the difference, cut after it so it ends within the width.
    expect(lines.find((l) => l.startsWith('ntf_queue_item_00007 '))).toBeDefined();
  });
});
