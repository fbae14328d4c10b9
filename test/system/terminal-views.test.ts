// Covers: src/output/list.ts src/output/describe.ts src/output/picture.ts src/output/fit.ts src/output/progress.ts
// Covers: src/output/prompts.ts src/commands/resource/update-run.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binOnPath, loggedIn } from '../helpers/logged-in.js';
import { terminal } from '../helpers/terminal.js';

// What a person sees at a terminal of 80 and of 120 columns: a real pseudo-terminal (tmux), its screen read
// back as drawn. Nothing may wrap: every record is one line, and no line is wider than the terminal.

for (const columns of [80, 120]) {
  describe(`at a terminal of ${columns} columns`, () => {
    const open = async () => {
      const session = await loggedIn();
      const path = `${await binOnPath()}:${process.env.PATH}`;
      const term = await terminal(columns, { ...session.env, PATH: path });
      return { ...session, term };
    };
    const fits = (lines: string[]) => {
      for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(columns);
    };

    it('lists one line per record under a header, ids whole, ranges in one cell', async () => {
      const { term } = await open();
      const lines = await term.run('clinadmin measures list');
      expect(lines[0]).toMatch(/^ID\s+TEST\s+NAME\s+TYPE\s+UNIT\s+REFERENCE RANGES$/);
      expect(lines).toHaveLength(7);
      fits(lines);
      for (const id of ['msr_hgb', 'msr_wbc', 'msr_k', 'msr_glu', 'msr_hcg', 'msr_ua_color'])
        expect(lines.some((l) => l.startsWith(`${id} `))).toBe(true);
      expect(lines.find((l) => l.startsWith('msr_hgb'))).toMatch(/13\.5–17\.5 g\/dL \+2$/);
      if (columns === 80) expect(lines.find((l) => l.startsWith('msr_glu'))).toMatch(/Glucose, fa…/);
      else expect(lines.find((l) => l.startsWith('msr_glu'))).toContain('Glucose, fasting');
      const notifications = await term.run('clinadmin notifications list');
      expect(notifications[0]).toMatch(/^ID\s+TIME\s+TYPE\s+CODE\s+TITLE\s+SEEN$/);
      expect(notifications).toHaveLength(4);
      fits(notifications);
    });

    it('-o wide adds columns on one line, leaving out (and saying so) what cannot fit', async () => {
      const { term } = await open();
      const lines = await term.run('clinadmin measures list -o wide');
      expect(lines[0]).toMatch(/^ID\s+TEST\s+NAME\s+TYPE\s+UNIT\s+REFERENCE RAN\S*\s+SI UNIT/);
      expect(lines.slice(1, 7).every((l) => l.startsWith('msr_'))).toBe(true);
      fits(lines);
      if (columns === 120) {
        expect(lines[0]).toMatch(/SI UNIT\s+SET\s+HL7 CODE\s+RANGES\s+CREATED$/);
        expect(lines).toHaveLength(7);
      } else {
        expect(lines[lines.length - 1]).toBe('note: 4 columns left out to fit 80: SET, HL7 CODE, RANGES, CREATED');
      }
      const bare = await term.run('clinadmin coverages list --no-headers');
      expect(bare).toHaveLength(3);
      expect(bare[0]).toMatch(/^cov_acme_cbc\s+ctr_acm/);
    });

    it('shows a record as a describe view with its ranges and their picture, bands in order', async () => {
      const { term } = await open();
      const lines = await term.run('clinadmin measures show msr_hgb');
      fits(lines);
      expect(lines[0]).toBe('Hemoglobin');
      expect(lines).toContain('Name:        Hemoglobin');
      const picture = lines.indexOf('Range picture (g/dL)');
      expect(picture).toBeGreaterThan(0);
      const bands = lines.slice(picture + 1, picture + 4);
      expect(bands.map((l) => l.trim().split(/\s{2,}/)[0])).toEqual(['male 18–120 y', 'female 18–120 y', 'all 1–17 y']);
      for (const band of bands) expect(band).toMatch(/^\s+\S.*\s!+·*\[=+\]·*!+$/);
      // The scale names the panic thresholds and the bounds, in the unit.
      expect(lines[picture + 4].trim().split(/\s+/)).toEqual(['7', '11', '12', '13.5', '15.5', '17.5', '20']);
    });

    it('asks at a prompt and draws the import progress and its summary, each on one line', async () => {
      const { term, dir } = await open();
      await term.type('-l', 'clinadmin measures create --test tst_term --type posneg');
      await term.type('Enter');
      await expect.poll(term.screen, { timeout: 10_000 }).toMatch(/\? Measure name \(--name\):/);
      await term.type('-l', 'Typed here');
      await term.type('Enter');
      await expect.poll(term.screen, { timeout: 10_000 }).toMatch(/^Typed here$/m);
      fits((await term.screen()).split('\n'));
      const records = Array.from({ length: 3000 }, (_, i) => ({ test: 'tst_bulk', name: `Bulk ${i}` }));
      await writeFile(join(dir, 'bulk.json'), JSON.stringify(records));
      const lines = await term.run(`clinadmin measures import ${join(dir, 'bulk.json')}`);
      fits(lines);
      // The bar is gone once done; the summary is one sentence.
      expect(lines.filter((l) => l.trim() !== '')).toEqual([
        expect.stringMatching(/^3,000 created, 0 updated, 0 unchanged, 0 failed in \d+\.\d s \([\d,]+\/s\)$/),
      ]);
    });
  });
}

describe('cancelling at a prompt, in a real terminal', () => {
  for (const [what, key] of [
    ['Ctrl-C', 'C-c'],
    ['Ctrl-D (end of input)', 'C-d'],
  ] as const) {
    it(`${what} at a create or delete prompt says "cancelled", exits 130 and sends nothing`, async () => {
      const session = await loggedIn();
      const path = `${await binOnPath()}:${process.env.PATH}`;
      const term = await terminal(80, { ...session.env, PATH: path });
      for (const [line, question] of [
        ['clinadmin measures create --test tst_cancel', /\? Measure name \(--name\):/],
        ['clinadmin measures delete msr_k', /\? Delete measure msr_k on /],
      ] as const) {
        await term.clear();
        await term.type('-l', line);
        await term.type('Enter');
        await expect.poll(term.screen, { timeout: 10_000 }).toMatch(question);
        await term.type(key);
        await expect.poll(term.screen, { timeout: 10_000 }).toMatch(/^error: cancelled; nothing was sent$/m);
        expect(await term.status()).toBe(130);
      }
      const left = await session.run(['measures', 'list', '-o', 'json']);
      const ids = (JSON.parse(left.stdout) as { id: string; test: string }[]).map((m) => m.test);
      expect(ids).not.toContain('tst_cancel');
      expect(JSON.parse(left.stdout).map((m: { id: string }) => m.id)).toContain('msr_k');
    });
  }
});

describe('replacing every range at a terminal', () => {
  it('shows the diff and asks; no keeps every range', async () => {
    const session = await loggedIn();
    const path = `${await binOnPath()}:${process.env.PATH}`;
    const term = await terminal(120, { ...session.env, PATH: path });
    await term.type('-l', 'clinadmin measures update msr_hgb --replace-reference-ranges 13.6-17.5');
    await term.type('Enter');
    await expect.poll(term.screen, { timeout: 10_000 }).toMatch(/\? Replace the ranges of measure msr_hgb as shown\?/);
    const screen = await term.screen();
    // Each range on one line, in the lab's short form, paired by id, then by sex and band: the new range is for
    // everyone at every age, a band none of the old ones had, so it is an addition and each old one a removal.
    expect(screen).toMatch(/^ {4}referenceRanges\[0\]: added 13\.6–17\.5$/m);
    expect(screen).toMatch(/^ {4}referenceRanges\[0\]: removed rr_hgb_m: 13\.5–17\.5 \[135–175\] \(male, 18–120 y\)$/m);
    expect(screen).toMatch(/^ {4}referenceRanges\[2\]: removed rr_hgb_c: 11\.0–14\.0 \[110–140\] \(1–17 y\)$/m);
    await term.type('n');
    await term.type('Enter');
    await expect.poll(term.screen, { timeout: 10_000 }).toMatch(/^error: nothing was changed$/m);
    const left = JSON.parse((await session.run(['measures', 'show', 'msr_hgb', '-o', 'json'])).stdout);
    expect(left.referenceRanges).toHaveLength(3);
  });
});
