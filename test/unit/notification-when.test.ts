// Covers: src/core/notifications.ts src/commands/notifications/watch-run.ts src/output/watch-line.ts
// Covers: src/output/list.ts src/output/fit.ts
import { describe, expect, it } from 'vitest';
import { parseWhen } from '../../src/core/notifications.js';
import { col } from '../../src/output/columns.js';
import { fitWidths } from '../../src/output/fit.js';
import { displayWidth } from '../../src/output/text.js';
import { watchLine } from '../../src/output/watch-line.js';

// Local times are built with the Date constructor, so these hold in any zone the tests run in.
const now = new Date(2026, 10, 27, 4, 17, 30).getTime();
const day = (y: number, m: number, d: number) => new Date(y, m - 1, d).getTime();

describe('--since and --until: one reader of times', () => {
  it('reads durations back from now', () => {
    expect(parseWhen('90s', 'since', now)).toBe(now - 90_000);
    expect(parseWhen('15m', 'since', now)).toBe(now - 900_000);
    expect(parseWhen('1h', 'until', now)).toBe(now - 3_600_000);
    expect(parseWhen('2d', 'since', now)).toBe(now - 2 * 86_400_000);
  });

  it('reads today, yesterday and ISO dates as local days: their start for since, their end for until', () => {
    expect(parseWhen('today', 'since', now)).toBe(day(2026, 11, 27));
    expect(parseWhen('today', 'until', now)).toBe(day(2026, 11, 28));
    expect(parseWhen('Yesterday', 'since', now)).toBe(day(2026, 11, 26));
    expect(parseWhen('yesterday', 'until', now)).toBe(day(2026, 11, 27));
    expect(parseWhen('2026-11-20', 'since', now)).toBe(day(2026, 11, 20));
    expect(parseWhen('2026-12-31', 'until', now)).toBe(day(2027, 1, 1));
  });

  it('reads a time of day as today in the local zone, for either edge (issue 64)', () => {
    expect(parseWhen('08:00', 'since', now)).toBe(new Date(2026, 10, 27, 8, 0).getTime());
    expect(parseWhen('8:05', 'until', now)).toBe(new Date(2026, 10, 27, 8, 5).getTime());
    expect(parseWhen('00:00:30', 'since', now)).toBe(new Date(2026, 10, 27, 0, 0, 30).getTime());
    for (const bad of ['24:00', '08:60', '8', '08:00:61']) expect(parseWhen(bad, 'since', now), bad).toBeUndefined();
  });

  it('reads a weekday as the last one before today, as git does, a whole day (issue 64)', () => {
    // 2026-11-27 is a Friday.
    expect(new Date(now).getDay()).toBe(5);
    expect(parseWhen('monday', 'since', now)).toBe(day(2026, 11, 23));
    expect(parseWhen('Mon', 'until', now)).toBe(day(2026, 11, 24));
    expect(parseWhen('thursday', 'since', now)).toBe(day(2026, 11, 26));
    expect(parseWhen('friday', 'since', now)).toBe(day(2026, 11, 20));
    expect(parseWhen('sun', 'since', now)).toBe(day(2026, 11, 22));
    expect(parseWhen('mo', 'since', now)).toBeUndefined();
  });

  it('reads a date of a year below 100 as that year, as its ISO time is read (issue 59)', () => {
    // ECMAScript reads a date-time form without an offset as local time, year 0050 as the year 50.
    expect(parseWhen('0050-01-01', 'since', now)).toBe(new Date('0050-01-01T00:00').getTime());
    expect(parseWhen('0050-01-01', 'until', now)).toBe(new Date('0050-01-02T00:00').getTime());
    expect(parseWhen('0050-01-01T00:00', 'since', now)).toBe(parseWhen('0050-01-01', 'since', now));
  });

  it('reads ISO 8601 times: local without an offset, else at the offset given', () => {
    expect(parseWhen('2026-11-20T08:00', 'since', now)).toBe(new Date(2026, 10, 20, 8, 0).getTime());
    expect(parseWhen('2026-11-20 08:00:30', 'since', now)).toBe(new Date(2026, 10, 20, 8, 0, 30).getTime());
    expect(parseWhen('2026-11-20T08:00Z', 'since', now)).toBe(Date.UTC(2026, 10, 20, 8, 0));
    expect(parseWhen('2026-11-20T08:00:00+02:00', 'since', now)).toBe(Date.UTC(2026, 10, 20, 6, 0));
  });

  it('refuses anything else, dates that do not exist included', () => {
    for (const bad of [
      '',
      'now',
      'tomorrow',
      '15 m',
      '2026-02-30',
      '2026-13-01',
      '2026-11-20T24:30',
      'Nov 20',
      '20/11/2026',
    ])
      expect(parseWhen(bad, 'since', now), bad).toBeUndefined();
  });
});

describe('the title first', () => {
  const columns = [
    col('id', 'ID'),
    { ...col('createdAt', 'TIME'), short: (t: string) => t },
    col('type', 'TYPE'),
    col('code', 'CODE'),
    { ...col('title', 'TITLE'), free: true, lead: true },
    col('seenBy', 'SEEN'),
  ];
  it('keeps 30 characters and `…` for a lead title at 80 while the type and code are cut, the id whole', () => {
    const widths = fitWidths([16, 11, 18, 14, 48, 4], columns, 80);
    expect(widths[4]).toBe(31);
    expect(widths[0]).toBe(16);
    expect(widths[1]).toBe(11);
    expect(widths.reduce((a, b) => a + b, 0) + 2 * 5).toBeLessThanOrEqual(80);
  });

  it('watch gives the title 30 columns at 80 before the code and type, the time shortened, the id whole', () => {
    const line = watchLine(
      '2026-11-27 04:17',
      ['diagnostic-measure', 'diagnostic-measure-created', 'Measure created: Hemoglobin A1c, whole blood'],
      'ntf_u2EK-PaAHqaM',
      80,
    );
    expect(displayWidth(line)).toBeLessThanOrEqual(80);
    // 30 characters of title of its own, and the ellipsis (issue 64).
    expect(line).toMatch(/^11-27 04:17 {2}\S+ {2}\S+ {2}Measure created: Hemoglobin A1… {2}\(ntf_u2EK-PaAHqaM\)$/);
  });

  it('watch shows an id whole or not at all, never cut, however narrow', () => {
    const id = 'ntf_3f2b9c1e-8d4a-4e7b-9a61-0c5d2e7f1a93';
    for (const width of [60, 80, 100, 120]) {
      const line = watchLine('2026-11-27 04:17', ['warehouse', 'stock-low', 'Stock low: urine cups'], id, width);
      expect(displayWidth(line)).toBeLessThanOrEqual(width);
      expect(line.endsWith(`  (${id})`) || !line.includes('(ntf_')).toBe(true);
    }
  });
});

describe('a table too wide for its times', () => {
  it('shows times without their year, and leaves out a time column it cannot fit without failing', async () => {
    const { Writable } = await import('node:stream');
    const { renderList } = await import('../../src/output/list.js');
    const { columnsOf } = await import('../../src/output/columns.js');
    const { measures, notifications } = await import('../../src/resources/index.js');
    const { theme } = await import('../../src/output/theme.js');
    const t = await theme(false);
    const render = (columns: ReturnType<typeof columnsOf>, rows: Record<string, unknown>[], width: number) => {
      let out = '';
      const stream = new Writable({
        write(chunk, _enc, done) {
          out += chunk.toString();
          done();
        },
      });
      renderList(stream, rows, columns, { width, headers: true, t, view: {} });
      return out.trimEnd().split('\n');
    };
    const at = new Date(2026, 10, 27, 4, 17).getTime();
    const note = { id: 'ntf_u2EK-PaAHqaM', createdAt: at, type: 'warehouse', code: 'stock-low', title: 'x'.repeat(40) };
    const shown = columnsOf(notifications).filter((c) => c.shown);
    expect(render(shown, [note], 80)[1]).toMatch(/^ntf_u2EK-PaAHqaM {2}11-27 04:17 {2}/);
    expect(render(shown, [note], 200)[1]).toMatch(/^ntf_u2EK-PaAHqaM {2}2026-11-27 04:17 {2}/);
    // A time column on the right that does not fit even short is left out, the rest drawn.
    const measure = { id: 'msr_1', test: 'tst_1', name: 'n'.repeat(30), createdAt: at, createdBy: 'someone' };
    const wide = columnsOf(measures).filter((c) => ['id', 'test', 'name', 'createdAt'].includes(c.key));
    expect(render(wide, [measure], 30)[0]).toMatch(/^ID\s+TEST/);
  });
});
