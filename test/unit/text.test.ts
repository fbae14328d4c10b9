// Covers: src/output/text.ts src/output/fit.ts src/output/wrap.ts
import { describe, expect, it } from 'vitest';
import { col } from '../../src/output/columns.js';
import { fitWidths } from '../../src/output/fit.js';
import { cut, displayWidth, layoutWidth, visible } from '../../src/output/text.js';
import { wrapText } from '../../src/output/wrap.js';

describe('text for a terminal', () => {
  it('shows control characters and bidirectional overrides as escapes, never raw', () => {
    expect(visible('a\u001b]0;x\u0007b\u001b[2Jc')).toBe('a\\u001b]0;x\\u0007b\\u001b[2Jc');
    expect(visible('left\u202eright\u2066x\u0085')).toBe('left\\u202eright\\u2066x\\u0085');
    expect(visible('two\nlines\ttab')).toBe('two\nlines\ttab');
    expect(visible('two\nlines\ttab\r', true)).toBe('two lines tab\\u000d');
    // The line and paragraph separators (Unicode categories Zl and Zp) break a line to many readers.
    expect(visible('a\u2028b\u2029c', true)).toBe('a\\u2028b\\u2029c');
  });

  it('shows half of a UTF-16 pair as its escape, and a whole pair as the character it is', () => {
    // UTF-8 has no bytes for a surrogate (RFC 3629, 3): a terminal would get U+FFFD for either half.
    expect(visible('Hemoglobin \ud83e')).toBe('Hemoglobin \\ud83e');
    expect(visible('\udd2c adult', true)).toBe('\\udd2c adult');
    expect(visible('Hemoglobin \ud83e\udd2c')).toBe('Hemoglobin \ud83e\udd2c');
  });

  it('measures wide characters as two columns and cuts with an ellipsis within the width', () => {
    expect(displayWidth('血清')).toBe(4);
    expect(displayWidth('\u001b[1mbold\u001b[22m')).toBe(4);
    expect(cut('Glucose, fasting', 12)).toBe('Glucose, fa…');
    expect(cut('血清血清', 5)).toBe('血清…');
    expect(displayWidth(cut('血清血清', 5))).toBeLessThanOrEqual(5);
    expect(cut('short', 12)).toBe('short');
    // Emoji in emoji presentation are wide (UTS #51, as terminals draw them), a ZWJ sequence is one
    // picture, and a combining accent takes no column: counted by string-width, cut by grapheme.
    expect(displayWidth('👍')).toBe(2);
    expect(displayWidth('👨\u200d👩\u200d👧')).toBe(2);
    expect(displayWidth('Cafe\u0301')).toBe(4);
    expect(cut('👨\u200d👩\u200d👧 family', 3)).toBe('👨\u200d👩\u200d👧…');
    expect(cut('Cafe\u0301 au lait', 5)).toBe('Cafe\u0301…');
  });

  it("lays out to the terminal's columns, else COLUMNS, else 80; in a pipe to COLUMNS or no limit", () => {
    expect(layoutWidth({ isTTY: true, columns: 132 }, { COLUMNS: '90' })).toBe(132);
    expect(layoutWidth({ isTTY: true, columns: 0 }, { COLUMNS: '90' })).toBe(90);
    expect(layoutWidth({ isTTY: true, columns: 0 }, {})).toBe(80);
    expect(layoutWidth({ isTTY: true }, { COLUMNS: 'x' })).toBe(80);
    expect(layoutWidth({}, { COLUMNS: '100' })).toBe(100);
    expect(layoutWidth({}, {})).toBe(Number.POSITIVE_INFINITY);
  });

  it('narrows free text first, never an id, and the rest down to their headers', () => {
    // Which columns are free text is the registry's word (`free`), as a measure's name is.
    const columns = [
      col('id', 'ID'),
      { ...col('name', 'NAME'), free: true },
      col('type', 'TYPE'),
      col('ref', 'APPLIES TO'),
    ];
    // 20 + 30 + 10 + 30 and three gaps of 2: 96 columns.
    expect(fitWidths([20, 30, 10, 30], columns, 96)).toEqual([20, 30, 10, 30]);
    expect(fitWidths([20, 30, 10, 30], columns, 90)).toEqual([20, 24, 10, 30]);
    expect(fitWidths([20, 30, 10, 30], columns, 70)).toEqual([20, 12, 10, 22]);
    expect(fitWidths([20, 30, 10, 30], columns, 40)).toEqual([20, 12, 8, 8]);
  });
});

describe('help fitted to the terminal', () => {
  it('breaks long lines at spaces, under the description column or the example command, never mid-word', () => {
    const help = [
      '  --limit <n>            at most this many (the first ones the server lists)',
      '  $ clinadmin measures create --test tst_bmp --name Potassium --type numeric',
      'Every format but -o yaml and --query streams a list of any length.',
      'a-single-word-that-is-longer-than-the-whole-line-stays-whole',
    ].join('\n');
    expect(wrapText(help, 50).split('\n')).toEqual([
      '  --limit <n>            at most this many (the',
      '                         first ones the server',
      '                         lists)',
      '  $ clinadmin measures create --test tst_bmp',
      '    --name Potassium --type numeric',
      'Every format but -o yaml and --query streams a',
      'list of any length.',
      'a-single-word-that-is-longer-than-the-whole-line-stays-whole',
    ]);
    expect(wrapText(help, Number.POSITIVE_INFINITY)).toBe(help);
  });
});
