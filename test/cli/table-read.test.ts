// Covers: src/output/list.ts src/output/stream.ts src/output/text.ts
import { describe, expect, it } from 'vitest';
import { hostileServer } from '../helpers/hostile.js';
import { runShipped } from '../helpers/run-shipped.js';

// A long table reads from each plain ASCII record only the fields its columns show (json/members.ts), and
// parses any other record whole. Whichever way a record is read, a person sees the same table: widths by
// display width (East Asian wide characters and emoji two columns, UAX #11 and UTS #51), cut with `…`,
// and a control character from the server shown as its escape, never sent to the terminal.

const RECORDS = [
  // Plain ASCII, read for its fields alone.
  {
    id: 'msr_a',
    test: 'tst_1',
    name: 'Sodium in serum or plasma',
    type: 'numeric',
    unit: 'mmol/L',
    referenceRanges: [
      { id: 'rr_1', min: 3.5, minPrecision: 2, max: 5.1, sex: 'male' },
      { id: 'rr_2', min: 3.4, max: 5 },
    ],
    panicRanges: [{ min: 2.5, max: 6.5 }],
    description: 'not shown',
  },
  // Outside ASCII (parsed whole): wide characters, and a family emoji joined into one picture.
  { id: 'msr_b', test: 'tst_2', name: '血清ナトリウム濃度の測定', type: 'numeric', unit: 'mmol/L' },
  { id: 'msr_c', test: 'tst_3', name: '👨‍👩‍👧 family panel of tests', type: 'text' },
  // ASCII with a raw DEL (JSON needs no escape for it): read for its fields, and the DEL shown escaped.
  { id: 'msr_d', test: 'tst_4', name: 'Bell\u007f', type: 'choice', unit: 'U' },
  // An escaped ESC (parsed whole): shown as its escape.
  { id: 'msr_e', test: 'tst_5', name: '\u001b[31mred', type: 'text', referenceRanges: [{ simin: 1, simax: 2 }] },
];

async function table(columns: string, args: string[] = []) {
  const server = await hostileServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(RECORDS));
  });
  const r = await runShipped(['measures', 'list', '-o', 'table', ...args], {
    env: { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: 't', COLUMNS: columns, NO_COLOR: '1' },
  });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

describe('a table read field by field shows what the whole records show', () => {
  it('lays out wide characters, emoji and escapes by display width, at a wide terminal', async () => {
    expect(await table('120')).toBe(
      [
        'ID     TEST   NAME                       TYPE     UNIT    REFERENCE RANGES',
        'msr_a  tst_1  Sodium in serum or plasma  numeric  mmol/L  3.50–5.1 mmol/L +1',
        'msr_b  tst_2  血清ナトリウム濃度の測定   numeric  mmol/L',
        'msr_c  tst_3  👨‍👩‍👧 family panel of tests   text',
        'msr_d  tst_4  Bell\\u007f                 choice   U',
        'msr_e  tst_5  \\u001b[31mred              text             1–2',
        '',
      ].join('\n'),
    );
  });

  it('cuts names by display width at a narrow terminal, never half a character', async () => {
    expect(await table('60')).toBe(
      [
        'ID     TEST   NAME          TYPE     UNIT    REFERENCE RANG…',
        'msr_a  tst_1  Sodium in s…  numeric  mmol/L  3.50–5.1 mmol/…',
        'msr_b  tst_2  血清ナトリ…   numeric  mmol/L',
        'msr_c  tst_3  👨‍👩‍👧 family p…  text',
        'msr_d  tst_4  Bell\\u007f    choice   U',
        'msr_e  tst_5  \\u001b[31mr…  text             1–2',
        '',
      ].join('\n'),
    );
  });

  it('reads the fields --fields names, and those alone', async () => {
    expect(await table('120', ['--fields', 'id,description,panicRanges'])).toBe(
      [
        'ID     DESCRIPTION  PANIC RANGES',
        'msr_a  not shown    < 2.5 or > 6.5 mmol/L',
        'msr_b',
        'msr_c',
        'msr_d',
        'msr_e',
        '',
      ].join('\n'),
    );
  });
});
