// Covers: src/output/terminal.ts src/output/browse-view.ts
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { OutStream } from '../../src/context.js';
import { Browse, type BrowseNote } from '../../src/output/browse-model.js';
import { browseFrame } from '../../src/output/browse-view.js';
import { control, drawFrame, exact, guard } from '../../src/output/terminal.js';
import { theme } from '../../src/output/theme.js';
import { HOSTILE_TEXT, hostileRecords, RAW_CONTROL } from '../helpers/hostile.js';

// The one writer (issue 38): whatever a command gives it, no control, format or bidi character it did
// not mean reaches the terminal; our colors pass only while they are on, and only ours.

const OURS = /\u001b\[(?:1|2|7|22|27|31|32|33|36|39)m/g;

function stream(tty = false): { out: OutStream; text: () => string } {
  const out = new PassThrough() as unknown as OutStream;
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString()));
  if (tty) Object.assign(out, { isTTY: true, columns: 80 });
  return { out, text: () => text };
}

describe('the terminal writer', () => {
  it('escapes strings and bytes written to it, keeping newlines and tabs', () => {
    const { out, text } = stream();
    const g = guard(out, false);
    g.write(`a${HOSTILE_TEXT}\tb\n`);
    g.write(Buffer.from(`c${HOSTILE_TEXT}\n`));
    g.write(Buffer.from('plain ascii\n'));
    expect(RAW_CONTROL.test(text())).toBe(false);
    expect(text()).toContain('\\u001b]52;c;');
    expect(text()).toContain('\\u009b2J\\u0085');
    expect(text()).toContain('\\u202eevil');
    expect(text()).toContain('\tb\n');
    expect(text().endsWith('plain ascii\n')).toBe(true);
  });

  it('never passes bytes that are not UTF-8: a lone 0x9b is CSI to an 8-bit terminal', () => {
    const { out } = stream();
    const chunks: Buffer[] = [];
    out.on('data', (d: Buffer) => chunks.push(d));
    guard(out, false).write(Buffer.from([0x7b, 0x22, 0xe9, 0x9b, 0x32, 0x4a, 0xc3, 0x22, 0x7d, 0x0a]));
    const sent = Buffer.concat(chunks);
    expect(sent.includes(0x9b)).toBe(false);
    // As a UTF-8 decoder reads them (WHATWG): the broken sequences as U+FFFD.
    expect(sent.toString('utf8')).toBe('{"\ufffd2J\ufffd"}\n');
    expect(sent.equals(Buffer.from(sent.toString('utf8')))).toBe(true);
  });

  it('lets our colors through only when colors are on, and never anything else', () => {
    const off = stream();
    guard(off.out, false).write('\u001b[1mbold\u001b[22m');
    expect(off.text()).toBe('\\u001b[1mbold\\u001b[22m');
    const on = stream(true);
    guard(on.out, true).write(`\u001b[1mbold\u001b[22m ${HOSTILE_TEXT}`);
    expect(on.text().startsWith('\u001b[1mbold\u001b[22m ')).toBe(true);
    expect(RAW_CONTROL.test(on.text().replace(OURS, ''))).toBe(false);
  });

  it('writes only its fixed sequences raw, and keeps exact bytes only away from a terminal', () => {
    const { out, text } = stream(true);
    const g = guard(out, false);
    control(g, 'clearLine');
    expect(text()).toBe('\r\u001b[2K');
    exact(g).write('\u001b[2J');
    expect(text()).toBe('\r\u001b[2K\\u001b[2J');
    const pipe = stream();
    exact(guard(pipe.out, false)).write('a\u200bb');
    expect(pipe.text()).toBe('a\u200bb');
  });

  it("draws browse's screen from hostile notifications with nothing raw but its own moves", async () => {
    const { notification } = hostileRecords();
    const notes = [notification, { ...notification, id: `ntf_2${HOSTILE_TEXT}` }] as unknown as BrowseNote[];
    const b = new Browse(`acc${HOSTILE_TEXT}`, undefined);
    b.load(notes);
    b.status = `opened ${HOSTILE_TEXT}`;
    for (const color of [false, true]) {
      const { out, text } = stream(true);
      const t = await theme(color);
      drawFrame(guard(out, color), browseFrame(b, 100, 30, t));
      b.key('return');
      b.replace(notification as unknown as BrowseNote);
      drawFrame(guard(out, color), browseFrame(b, 100, 30, t));
      const moves = /\u001b\[[HKJ]|\r\n/g;
      expect(text()).toContain('Notifications');
      expect(RAW_CONTROL.test(text().replace(moves, '').replace(OURS, ''))).toBe(false);
    }
  });
});
