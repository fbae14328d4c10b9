// Covers: src/files/spool.ts src/formats/record-stream.ts
import { readdir, readlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ctx } from '../../src/context.js';
import { jsonLines, Spool } from '../../src/files/spool.js';
import { forEachRecord } from '../../src/formats/record-stream.js';
import { parseRecords, type SourceRecord } from '../../src/formats/records.js';
import { tempDir } from '../helpers/tmp.js';

const collect = async <T>(items: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

describe('Spool', () => {
  const lines = Array.from({ length: 5000 }, (_, i) => `${i} Säuglinge – 血清 ${'é'.repeat(i % 97)}`);
  lines.splice(2500, 0, 'x'.repeat(200_000), `long ${'血'.repeat(100_000)}`, '');
  const all = async <T>(spool: Spool<T>) => (await collect(spool.batches())).flat();
  // Each test's spools go to a TMPDIR of its own, which no other test file writes into.
  const outer = process.env.TMPDIR;
  beforeEach(async () => {
    process.env.TMPDIR = await tempDir('clinadmin-spools-');
  });
  afterEach(() => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
  });
  /** Spool files this process holds open, already gone from their folder (Linux shows them so). */
  const openSpools = async () => {
    const targets = await Promise.all(
      (await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
    );
    return targets.filter((t) => t.startsWith(`${tmpdir()}/`) && t.endsWith('/spool (deleted)')).length;
  };

  it('gives back every item in order, held in memory while under its budget', async () => {
    const before = await openSpools();
    const spool = new Spool(jsonLines<string>());
    for (const l of lines) spool.push(l, l.length);
    await spool.settled();
    expect(await openSpools()).toBe(before);
    expect(await all(spool)).toEqual(lines);
    await spool.close();
  });

  it('past its budget, from disk: multi-byte characters across pieces, a line longer than a piece', async () => {
    const before = await openSpools();
    const spool = new Spool(jsonLines<string>(), 1000);
    for (const l of lines) spool.push(l, l.length);
    await spool.settled();
    expect(await openSpools()).toBe(before + 1);
    expect(await all(spool)).toEqual(lines);
    expect(await all(spool)).toEqual(lines);
    expect(spool.count).toBe(lines.length);
    await spool.close();
    expect(await openSpools()).toBe(before);
  });

  it('leaves nothing in the temporary folder, even while its file is open', async () => {
    const spool = new Spool(jsonLines<string>(), 0);
    spool.push('a line', 6);
    await spool.settled();
    expect(await openSpools()).toBeGreaterThan(0);
    expect(await readdir(tmpdir())).toEqual([]);
    expect(await all(spool)).toEqual(['a line']);
    await spool.close();
  });
});

describe('forEachRecord', () => {
  const ctx = (cwd: string) => ({ cwd, stdin: process.stdin }) as unknown as Ctx;

  /** The records read (each value looked at, as the importer does), or the message of the error met. */
  const outcome = async (read: (each: (r: SourceRecord) => void) => Promise<void> | void) => {
    try {
      const records: SourceRecord[] = [];
      await read((r) => records.push({ ...r, value: r.value }));
      return { records };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };

  /** What forEachRecord reads from a file of `text`, and what parseRecords reads from the text whole. */
  async function both(text: string | Buffer) {
    const dir = await tempDir();
    await writeFile(join(dir, 'in.json'), text);
    const streamed = await outcome((each) => forEachRecord(ctx(dir), ['in.json'], each));
    const whole = await outcome((each) => {
      const decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(text));
      for (const r of parseRecords(decoded, 'in.json')) each(r);
    });
    return { streamed, whole };
  }

  it('reads an array of any size one record at a time, as the whole-text reading does', async () => {
    const records = Array.from({ length: 3000 }, (_, i) => ({
      name: `M${i}`,
      note: 'Säuglinge – 血清'.repeat(i % 30),
    }));
    const { streamed, whole } = await both(`\ufeff ${JSON.stringify(records, null, 2)}\n`);
    expect(streamed).toEqual(whole);
    expect((streamed as { records: { value: unknown }[] }).records.map((r) => r.value)).toEqual(records);
  });

  it('refuses a broken array with the line and column the whole-text reading names', async () => {
    const cases = [
      '[{"name":"a"},\n{"name":"b"},\n]',
      '[{"name":"a"}\n{"name":"b"}]',
      '[{"name":"a"}] trailing',
      '[{"name":"a"},\n {"name": "b", "name": "c"}]',
      '[{"name":"a"}, 3]',
      '[{"name":"a"}, {"name": tru}]',
      '[{"name":"a"},\n {"name":"b"}',
      `[${'{"a":'.repeat(600)}1${'}'.repeat(600)}]`,
    ];
    for (const text of cases) {
      const { streamed, whole } = await both(text);
      expect(whole).toHaveProperty('error');
      expect(streamed, text).toEqual(whole);
    }
    const nul = await both('[{"name":"a\u0000"}]');
    expect(nul.streamed).toEqual({ error: 'in.json holds NUL bytes; it is not a JSON text file' });
    const latin1 = await both(Buffer.from('[{"name":"Gl\xfccose"}]', 'latin1'));
    expect(latin1.streamed).toEqual({ error: 'in.json is not UTF-8 text (line 1, column 13); save it as UTF-8' });
  });

  it('reads NDJSON a line at a time, taking blank lines, CRLF and a BOM as the whole-text reading does', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({ name: `M${i}`, note: '血清'.repeat(i % 40) }),
    );
    for (const text of [
      `\ufeff${lines.join('\n')}\n`,
      lines.join('\r\n'),
      `\n\n${lines.slice(0, 5).join('\n\n  \n')}\n\n`,
      `  ${lines[0]}\n${lines[1]}`,
    ]) {
      const { streamed, whole } = await both(text);
      expect(streamed).toHaveProperty('records');
      expect(streamed).toEqual(whole);
    }
  });

  it('refuses broken NDJSON with the line the whole-text reading names', async () => {
    const ok = JSON.stringify({ name: 'a' });
    for (const text of [
      `${ok}\n${ok}\n{"name": "b"\n${ok}`,
      `${ok}\n[1]\n`,
      `${ok}\n{"name": "b", "name": "c"}\n`,
      `${ok}\n${ok} x\n`,
      `${'\n'.repeat(70_000)}${ok}\n{"name": }`,
    ]) {
      const { streamed, whole } = await both(text);
      expect(whole).toHaveProperty('error');
      expect(streamed, text).toEqual(whole);
    }
  });

  it('reads the other forms whole, as before: one object, a wrapper, a pretty-printed object', async () => {
    for (const text of [
      '{"name":"a"}',
      '{"name":"a"}\n\n',
      '{"measures":[{"name":"a"}]}',
      '{\n  "name": "a"\n}\n',
      '{"resourceType":"Bundle","entry":[]}\n',
    ]) {
      const { streamed, whole } = await both(text);
      expect(streamed).toEqual(whole);
      expect(streamed).toHaveProperty('records');
    }
  });
});
