// Covers: src/output/browse-model.ts src/output/browse-view.ts
import { describe, expect, it } from 'vitest';
import { Browse, type BrowseNote } from '../../src/output/browse-model.js';
import { browseFrame } from '../../src/output/browse-view.js';
import { displayWidth } from '../../src/output/text.js';
import { theme } from '../../src/output/theme.js';

// The model and the screen of `notifications browse`, without a terminal (test/system/browse.test.ts
// drives the real one in tmux).

const notes = (n: number): BrowseNote[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `ntf_${i}`,
    createdAt: 1_790_000_000_000 + i * 60_000,
    type: i % 2 ? 'warehouse' : 'billing',
    code: 'c',
    title: `Title ${i}`,
    seenBy: i % 3 === 0 ? ['acc_me'] : [],
  }));

describe('notifications browse', () => {
  it('moves by row, page and end over 10,000, drawing only the rows on screen, each within the width', async () => {
    const b = new Browse('acc_me', undefined);
    b.load(notes(10_000));
    const t = await theme(false);
    let screen = browseFrame(b, 80, 24, t);
    expect(screen).toHaveLength(24);
    for (const l of screen) expect(displayWidth(l), l).toBeLessThanOrEqual(80);
    expect(screen[0]).toBe('Notifications  10,000 of 10,000 · all types');
    // Selected, seen by acc_me (no *), padded to the width for its reverse video.
    expect(screen[1]).toMatch(/^> {3}\d{4}-\d\d-\d\d \d\d:\d\d warehouse c {4}Title 9999 +$/);
    expect(screen[2]).toMatch(/^ \* {2}\d{4}-.* billing {3}c {4}Title 9998$/);
    for (const [key, id] of [
      ['pagedown', 'ntf_9990'],
      ['j', 'ntf_9989'],
      ['end', 'ntf_0'],
      ['pageup', 'ntf_9'],
      ['home', 'ntf_9999'],
      ['k', 'ntf_9999'],
    ] as const) {
      b.key(key);
      expect(b.current?.id, key).toBe(id);
      screen = browseFrame(b, 80, 24, t);
      expect(
        screen.filter((l) => l.startsWith('>')),
        key,
      ).toHaveLength(1);
    }
    expect(b.key('return')).toBe('open');
    expect(b.key('r')).toBe('refresh');
    expect(b.key('q')).toBe('quit');
    expect(b.key('c', true)).toBe('quit');
  });

  it('filters as typed, Esc clearing the filter first and leaving only when none is set', () => {
    const b = new Browse('acc_me', undefined);
    b.load(notes(30));
    b.key('/');
    for (const ch of 'title 2') b.key(ch);
    expect(b.shown.map((n) => n.id)).toEqual([
      'ntf_29',
      'ntf_28',
      'ntf_27',
      'ntf_26',
      'ntf_25',
      'ntf_24',
      'ntf_23',
      'ntf_22',
      'ntf_21',
      'ntf_20',
      'ntf_2',
    ]);
    b.key('backspace');
    b.key('return');
    expect(b.typing).toBe(false);
    expect(b.shown).toHaveLength(30);
    // `/` again goes on editing the filter there is.
    b.key('/');
    b.key('9');
    b.key('return');
    expect(b.text).toBe('title 9');
    expect(b.shown.map((n) => n.id)).toEqual(['ntf_9']);
    expect(b.key('escape')).toBeUndefined();
    expect(b.shown).toHaveLength(30);
    expect(b.key('escape')).toBe('quit');
  });

  it('keeps the selection on the same notification when new ones arrive on top', () => {
    const b = new Browse('acc_me', undefined);
    b.load(notes(50));
    b.fit(10);
    for (let i = 0; i < 3; i++) b.key('j');
    expect(b.current?.id).toBe('ntf_46');
    b.add([{ id: 'ntf_new', createdAt: 1_800_000_000_000, title: 'New', seenBy: [] }]);
    expect(b.current?.id).toBe('ntf_46');
    expect(b.shown[0].id).toBe('ntf_new');
    expect(b.arrived.has('ntf_new')).toBe(true);
  });

  it('puts an arrival on screen on top, marked, with the selection kept on its record, both in view', async () => {
    const b = new Browse('acc_me', undefined);
    b.load(notes(40));
    b.fit(9);
    for (let i = 0; i < 5; i++) b.key('j');
    expect([b.current?.id, b.selected, b.top]).toEqual(['ntf_34', 5, 0]);
    // Its time older than every one listed (a server's clock is not ours): still the news, on top.
    b.add([{ id: 'ntf_late', createdAt: 1_700_000_000_000, title: 'Late clock', seenBy: [] }]);
    expect([b.shown[0].id, b.current?.id, b.top]).toEqual(['ntf_late', 'ntf_34', 0]);
    const screen = browseFrame(b, 80, 24, await theme(false));
    expect(screen[1]).toMatch(/^ \*\+ .*Late clock$/);
    expect(screen.findIndex((l) => l.startsWith('>'))).toBe(7);
    // The same one again (a poll racing a reload) is not listed twice.
    b.add([{ id: 'ntf_late', createdAt: 1_700_000_000_000, title: 'Late clock', seenBy: [] }]);
    expect(b.shown.filter((n) => n.id === 'ntf_late')).toHaveLength(1);
    expect(b.total).toBe(41);
  });

  it('keeps the selection where it was on screen when it and the arrivals cannot both fit', () => {
    const b = new Browse('acc_me', undefined);
    b.load(notes(40));
    b.fit(9);
    for (let i = 0; i < 20; i++) b.key('j');
    const row = b.selected - b.top;
    b.add([{ id: 'ntf_new', createdAt: 1_800_000_000_000, title: 'New', seenBy: [] }]);
    expect(b.current?.id).toBe('ntf_19');
    expect(b.selected - b.top).toBe(row);
  });

  it('says on the status line only what holds for the screen: a key clears what it said before', () => {
    const b = new Browse('acc_me', undefined);
    b.load(notes(10));
    b.status = 'opened ntf_9';
    b.key('/');
    expect(b.status).toBe('');
    b.status = '1 new';
    b.key('x');
    expect(b.status).toBe('');
  });

  it('u shows only the unseen by the account; t cycles types; without an account u says what it needs', () => {
    const b = new Browse('acc_me', undefined);
    b.load(notes(9));
    b.key('u');
    expect(b.shown.every((n) => !(n.seenBy as string[]).includes('acc_me'))).toBe(true);
    expect(b.shown).toHaveLength(6);
    b.key('u');
    b.key('t');
    expect([b.type, b.shown.length]).toEqual(['billing', 5]);
    b.key('t');
    expect([b.type, b.shown.length]).toEqual(['warehouse', 4]);
    b.key('t');
    expect([b.type, b.shown.length]).toEqual([undefined, 9]);
    const anonymous = new Browse(undefined, undefined);
    anonymous.load(notes(3));
    anonymous.key('u');
    expect(anonymous.unseen).toBe(false);
    expect(anonymous.status).toBe('u needs your account: clinadmin config set account ID');
  });

  it("escapes a server's control bytes, and writes no escape of its own without color", async () => {
    const b = new Browse('acc_me', undefined);
    b.load([
      {
        id: 'ntf_x',
        createdAt: 1_790_000_000_000,
        type: 'warehouse',
        code: 'c',
        title: 'Hi\u001b]0;owned\u0007\u001b[2J',
        body: 'body \u001b[31mred\u009b',
        meta: { k: '\u001b[H' },
        seenBy: ['\u001b[1macc'],
      },
    ]);
    const plain = browseFrame(b, 120, 40, await theme(false)).join('\n');
    expect(plain).not.toMatch(/[\u001b\u0007\u009b]/);
    expect(plain).toContain('Hi\\u001b]0;owned\\u0007\\u001b[2J');
    expect(plain).toContain('body \\u001b[31mred\\u009b');
    expect(plain).toContain('seen by \\u001b[1macc');
    const colored = browseFrame(b, 120, 40, await theme(true)).join('\n');
    // Our own colors are the only escapes: SGR sequences, nothing that moves the cursor or sets a title.
    expect(colored.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain);
  });
});

describe('browse --seen-by and --unseen-by', () => {
  it('keeps those an account has seen, or has not', () => {
    const list = [
      { id: 'a', createdAt: 3, seenBy: ['acc_support'] },
      { id: 'b', createdAt: 2, seenBy: [] },
      { id: 'c', createdAt: 1, seenBy: ['acc_other', 'acc_support'] },
    ];
    const seen = new Browse(undefined, undefined, { seenBy: 'acc_support' });
    seen.load(list);
    expect(seen.shown.map((n) => n.id)).toEqual(['a', 'c']);
    const unseen = new Browse(undefined, undefined, { unseenBy: 'acc_support' });
    unseen.load(list);
    expect(unseen.shown.map((n) => n.id)).toEqual(['b']);
  });
});

describe('the detail pane at 80 × 24 (issue 64)', () => {
  const URL = 'https://lab.example.org/warehouse/queue/items/isc_urine_cups?batch=2026-11-27&from=central-lab';
  const long: BrowseNote = {
    id: 'ntf_3f2b9c1e-8d4a-4e7b-9a61-0c5d2e7f1a93',
    createdAt: 1_790_000_000_000 + 3_600_000,
    type: 'warehouse',
    code: 'stock-low',
    title: 'Stock low: urine collection cups at the central lab and at the two satellite labs',
    body: `Only 12 urine collection cups are left. Order more at ${URL} before the weekend.`,
    meta: Object.fromEntries([
      ...Array.from({ length: 10 }, (_, i) => [`item${i}`, `isc_item_${i}`]),
      ['account', 'acc_lab_maria'],
      ['by', 'warehouse-robot'],
    ]),
    seenBy: [],
  };

  it('marks what is below the fold, scrolls to the last meta key with space, back with b; lines whole', async () => {
    const b = new Browse('acc_me', undefined);
    b.load([long, ...notes(2)]);
    const t = await theme(false);
    let screen = browseFrame(b, 80, 24, t);
    for (const l of screen) expect(displayWidth(l), l).toBeLessThanOrEqual(80);
    // Three to list, three list rows: the rest is the detail's.
    expect(screen[4]).toMatch(/^─+$/);
    expect(screen.join('\n')).not.toContain('by: warehouse-robot');
    expect(screen[21]).toMatch(/^ ↓ \d+ more lines? · space$/);
    expect(screen[22]).toBe('space/b scroll the detail');
    // The id whole, the title wrapped, not cut.
    expect(screen).toContain(' warehouse · stock-low · ntf_3f2b9c1e-8d4a-4e7b-9a61-0c5d2e7f1a93');
    expect(screen.join(' ').replace(/ +/g, ' ')).toContain(long.title as string);
    for (let i = 0; i < 10 && !screen.join('\n').includes('by: warehouse-robot'); i++) {
      b.key(' ');
      screen = browseFrame(b, 80, 24, t);
    }
    const text = screen.join('\n');
    expect(text).toContain('  account: acc_lab_maria');
    expect(text).toContain('  by: warehouse-robot');
    expect(screen[5]).toMatch(/^ ↑ \d+ lines? above · b$/);
    expect(screen[21]).not.toMatch(/more line/);
    // The URL is whole across the lines it takes.
    b.key('b');
    b.key('b');
    screen = browseFrame(b, 80, 24, t);
    expect(screen.map((l) => l.trim()).join('')).toContain(URL);
    // Another selected starts at its top.
    b.key(' ');
    b.key('j');
    screen = browseFrame(b, 80, 24, t);
    expect(screen[5]).not.toMatch(/above/);
  });
});
