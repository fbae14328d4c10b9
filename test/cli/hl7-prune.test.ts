// Covers: src/formats/hl7/master-file.ts src/formats/hl7/read.ts src/core/sync/prune.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// `measures import FILE.hl7 --prune`: HL7 v2.5.1 chapter 8 (8.5.1.1) makes MFE-1 a record-level event, and
// MDL "delete record for item": it speaks of the one record MFE-4 and OM1-2 name, never of its battery.
// So an MDL deletes at most that record, and one the server does not hold deletes nothing; MAD and MUP
// records name their test as every import's records do, and --prune holds that test to the file
// (docs/ci.md: "a file that names no record of a contract cannot empty it").

type Rec = Record<string, unknown>;
const MSH = 'MSH|^~\\&|L||||20261120||MFN^M08^MFN_M08|1|P|2.5.1\rMFI|OMA';
const M10 = 'MSH|^~\\&|L||||20261120||MFN^M10^MFN_M10|2|P|2.5.1\rMFI|OMA';

/** One master-file record for an observation, by LOINC code and name. */
const record = (event: string, n: number, code: string, name: string) =>
  `MFE|${event}|${n}||${code}^${name}^LN|CWE\rOM1|${n}|${code}^${name}^LN|NM`;
/** An M10 battery `test` listing the observations by LOINC code and name. */
const battery = (test: string, members: [string, string][]) =>
  `${M10}\rMFE|MAD|9||${test}^${test}^L|CWE\rOM1|9|${test}^${test}^L|NM\r` +
  `OM5|9|${members.map(([c, n]) => `${c}^${n}^LN`).join('~')}`;

const HGB: [string, string] = ['718-7', 'Hemoglobin'];
const WBC: [string, string] = ['6690-2', 'WBC'];
const CL: [string, string] = ['2075-0', 'Chloride'];

/** A server holding Hemoglobin and WBC in tst_cbc and Sodium in tst_lytes. */
async function seeded() {
  const s = await cliOnServer({ events: false });
  const measures = [
    { test: 'tst_cbc', name: 'Hemoglobin', hl7IdentifierCod: '718-7', hl7IdentifierSys: 'LN' },
    { test: 'tst_cbc', name: 'WBC', hl7IdentifierCod: '6690-2', hl7IdentifierSys: 'LN' },
    { test: 'tst_lytes', name: 'Sodium', hl7IdentifierCod: '2951-2', hl7IdentifierSys: 'LN' },
  ].map((m) => ({ ...m, type: 'numeric', unit: 'g/dL' }));
  await writeFile(join(s.dir, 'seed.json'), JSON.stringify(measures));
  const seed = await s.cli(['measures', 'import', 'seed.json']);
  expect(seed.code, seed.stderr).toBe(0);
  const held = async () =>
    (JSON.parse((await s.cli(['measures', 'list', '-o', 'json'])).stdout) as Rec[])
      .map((m) => `${m.test} ${m.name}`)
      .sort();
  /** Imports `text` with --prune --yes (and `args`), returning the run and what the server then holds. */
  const prune = async (text: string, args: string[] = []) => {
    await writeFile(join(s.dir, 'in.hl7'), text);
    const r = await s.cli(['measures', 'import', 'in.hl7', '--prune', '--yes', ...args]);
    return { ...r, held: await held() };
  };
  return { ...s, held, prune };
}

describe('measures import FILE.hl7 --prune: an MDL deletes at most the record it names', () => {
  it('MDL of a member of an M10 battery the server lacks deletes nothing of the battery', async () => {
    const s = await seeded();
    const r = await s.prune(`${MSH}\r${record('MDL', 1, ...CL)}\r${battery('tst_cbc', [HGB, WBC, CL])}`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.held).toEqual(['tst_cbc Hemoglobin', 'tst_cbc WBC', 'tst_lytes Sodium']);
  });

  it('MDL of a member of an M10 battery the server holds deletes that member alone', async () => {
    const s = await seeded();
    const r = await s.prune(`${MSH}\r${record('MDL', 1, ...HGB)}\r${battery('tst_cbc', [HGB, WBC])}`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.held).toEqual(['tst_cbc WBC', 'tst_lytes Sodium']);
  });

  it('MDL under --test of a record the server lacks deletes nothing of that test', async () => {
    const s = await seeded();
    const r = await s.prune(`${MSH}\r${record('MDL', 1, ...CL)}`, ['--test', 'tst_cbc']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.held).toEqual(['tst_cbc Hemoglobin', 'tst_cbc WBC', 'tst_lytes Sodium']);
  });

  it('MDL under --test of a record the server holds deletes that record alone', async () => {
    const s = await seeded();
    const r = await s.prune(`${MSH}\r${record('MDL', 1, ...WBC)}`, ['--test', 'tst_cbc']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.held).toEqual(['tst_cbc Hemoglobin', 'tst_lytes Sodium']);
  });

  it('MDL beside an MAD of another test deletes its own record and nothing of the MAD test', async () => {
    const s = await seeded();
    const mad = record('MAD', 1, '2951-2', 'Sodium');
    const text = `${MSH}\r${mad}\r${record('MDL', 2, ...CL)}\r${battery('tst_cbc', [CL])}`;
    const r = await s.prune(text, ['--test', 'tst_lytes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.held).toEqual(['tst_cbc Hemoglobin', 'tst_cbc WBC', 'tst_lytes Sodium']);
  });

  it('MDL naming a record by our id (code system 99CLINADMIN) deletes that record alone', async () => {
    const s = await seeded();
    const list = JSON.parse((await s.cli(['measures', 'list', '-o', 'json'])).stdout) as Rec[];
    const wbc = list.find((m) => m.name === 'WBC')!.id as string;
    const r = await s.prune(`${MSH}\rMFE|MDL|1||${wbc}^WBC^99CLINADMIN|CWE\rOM1|1|${wbc}^WBC^99CLINADMIN|NM`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.held).toEqual(['tst_cbc Hemoglobin', 'tst_lytes Sodium']);
  });

  it('MDL of a record the same file adds keeps that record', async () => {
    const s = await seeded();
    const r = await s.prune(`${MSH}\r${record('MAD', 1, ...HGB)}\r${record('MDL', 2, ...HGB)}`, ['--test', 'tst_cbc']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.held).toEqual(['tst_cbc Hemoglobin', 'tst_lytes Sodium']);
  });

  it('MDL that names no test deletes nothing, and says so', async () => {
    const s = await seeded();
    const r = await s.prune(`${MSH}\r${record('MDL', 1, ...HGB)}`);
    expect(r.code).toBe(2);
    expect(r.held).toEqual(['tst_cbc Hemoglobin', 'tst_cbc WBC', 'tst_lytes Sodium']);
    expect(r.stderr).toContain('(Hemoglobin): MFE-1: MDL: names no test');
  });

  it.each([
    ['MAD', 'M10 battery', [] as string[]],
    ['MUP', 'M10 battery', []],
    ['MAD', '--test', ['--test', 'tst_cbc']],
    ['MUP', '--test', ['--test', 'tst_cbc']],
  ])('%s under its %s holds that test to the file, and no other test', async (event, how, args) => {
    const s = await seeded();
    const text = `${MSH}\r${record(event, 1, ...HGB)}${how === '--test' ? '' : `\r${battery('tst_cbc', [HGB])}`}`;
    const r = await s.prune(text, args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.held).toEqual(['tst_cbc Hemoglobin', 'tst_lytes Sodium']);
  });
});

// MFI-3, the file-level event (HL7 v2.5.1 8.5.1.3, table 0178): REP "replace current version of this master
// file with the version contained in this message"; UPD "change file records as defined in the record-level
// event codes for each record that follows". An update names only the records it changes: --prune then
// deletes what its MDLs name, and no record it leaves unmentioned.
describe('measures import FILE.hl7 --prune: a message of changes (MFI-3 UPD) deletes only what its MDLs name', () => {
  const msh = (fileEvent: string) => `MSH|^~\\&|L||||20261120||MFN^M08^MFN_M08|1|P|2.5.1\rMFI|OMA||${fileEvent}`;

  it.each(['MUP', 'MAD'])('%s of one member under UPD keeps the members it does not name', async (event) => {
    const s = await seeded();
    const r = await s.prune(`${msh('UPD')}\r${record(event, 1, ...HGB)}\r${battery('tst_cbc', [HGB, WBC])}`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.held).toEqual(['tst_cbc Hemoglobin', 'tst_cbc WBC', 'tst_lytes Sodium']);
  });

  it('MUP beside an MDL under UPD, with --test, deletes the MDL record alone', async () => {
    const s = await seeded();
    const r = await s.prune(`${msh('UPD')}\r${record('MUP', 1, ...HGB)}\r${record('MDL', 2, ...WBC)}`, [
      '--test',
      'tst_cbc',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.held).toEqual(['tst_cbc Hemoglobin', 'tst_lytes Sodium']);
  });

  it('MUP of one member under REP replaces the test: the member it does not name goes', async () => {
    const s = await seeded();
    const r = await s.prune(`${msh('REP')}\r${record('MUP', 1, ...HGB)}\r${battery('tst_cbc', [HGB, WBC])}`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.held).toEqual(['tst_cbc Hemoglobin', 'tst_lytes Sodium']);
  });
});
