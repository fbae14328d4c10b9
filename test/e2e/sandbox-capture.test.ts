import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';
import { variantServer } from '../helpers/variant.js';

// A rehearsal on a copy of the real service: sandbox capture reads a server that answers as a real one
// plausibly does (lists wrapped, in pages linked by Link: rel="next", createdAt in seconds, a field and a
// value this CLI does not know), and serve --load starts from what it wrote.

const procs: ResultPromise[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) {
    p.kill('SIGKILL');
    await p.catch(() => undefined);
  }
});

describe('sandbox capture', () => {
  it('copies every list of a paged, wrapped service into a file serve --load answers the same lists from', async () => {
    const variant = await variantServer();
    try {
      const dir = await tempDir();
      const captured = await clinadmin(['sandbox', 'capture', '--out', 'copy.json', '--timeout', '30'], {
        cwd: dir,
        env: { ...variant.env, CLINADMIN_CONFIG_DIR: join(dir, 'config') },
      });
      expect(captured.exitCode, captured.stderr).toBe(0);
      // What serve cannot hold is dropped and said, record and field; the rest is kept as the service sent it.
      expect(captured.stderr.split('\n')).toEqual([
        'dropped measures m1 labCode: serve does not know the field',
        expect.stringMatching(/^dropped measures m3 type: must be one of: numeric, /),
        'captured 3 measures, 1 coverages, 2 notifications and 1 contracts into copy.json',
      ]);
      const data = JSON.parse(await readFile(join(dir, 'copy.json'), 'utf8'));
      expect(data.contracts).toEqual([{ id: 'ctr_1', insured: 'org_lab', insurer: 'org_insurer' }]);

      const s = await serveProcess(['--load', 'copy.json', '--token', 'tok:acc_ci:admin'], { cwd: dir });
      procs.push(s.proc);
      const list = async (path: string) =>
        (await fetch(s.url + path, { headers: { authorization: 'Bearer tok' } })).json();
      const { labCode: _, ...m1 } = variant.measures[0];
      const { type: __, ...m3 } = variant.measures[2];
      expect(await list('/diagnostic-measures')).toEqual([
        { ...m1, createdBy: 'captured' },
        { ...variant.measures[1], createdBy: 'captured' },
        { ...m3, createdBy: 'captured' },
      ]);
      expect(await list('/insurance-coverages')).toEqual(
        variant.coverages.map((c) => ({ ...c, createdBy: 'captured' })),
      );
      expect(await list('/notifications')).toEqual(variant.notifications.map((n) => ({ ...n, seenBy: [] })));
      s.proc.kill('SIGTERM');
      await s.proc;
    } finally {
      await variant.close();
    }
  });
});
