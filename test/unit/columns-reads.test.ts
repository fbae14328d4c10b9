import { describe, expect, it } from 'vitest';
import { JsonArraySplitter } from '../../src/json/array-stream.js';
import { memberPicker } from '../../src/json/members.js';
import { columnsOf, wideColumnsOf } from '../../src/output/columns.js';
import { cellText } from '../../src/output/list.js';
import { coverages, measures, notifications } from '../../src/resources/index.js';

// A table reads each record for the fields its columns say they read (Column.reads), no more: each column
// must show from those exactly what it shows from the whole record, or the table would show less.

const RECORDS = {
  measures: [
    {
      id: 'msr_1',
      account: 'acc_1',
      test: 'tst_1',
      name: 'Potassium',
      type: 'numeric',
      choices: ['one', 'two'],
      description: 'about',
      set: 'Panel 1',
      sets: ['s1', 's2'],
      unit: 'mmol/L',
      siunit: 'mmol/L',
      hl7IdentifierCod: '2823-3',
      hl7IdentifierSys: 'LN',
      referenceRanges: [
        { id: 'rr_1', min: 3.5, minPrecision: 2, max: 5.1, sex: 'male', ageMin: 18, ageMax: 66 },
        { id: 'rr_2', min: 3.4, max: 5, sex: 'female' },
      ],
      panicRanges: [{ min: 2.5, max: 6.5, sex: 'all' }],
      createdBy: 'by',
      createdAt: 1_700_000_000_000,
    },
    // SI bounds only, one range, no panic ranges, no unit.
    {
      id: 'msr_2',
      name: 'Glucose',
      referenceRanges: [{ simin: 3.9, simax: 5.6, siminPrecision: 1 }],
      siunit: 'mmol/L',
    },
    // Not a list of objects (a newer or broken server): shown as its JSON.
    { id: 'msr_3', referenceRanges: [{ min: 1 }, 'two'], panicRanges: 'none', createdAt: 'soon' },
    { id: 'msr_4' },
  ],
  coverages: [
    {
      id: 'cov_1',
      contract: 'ctr_1',
      insured: 'org',
      insurer: 'ins',
      insurerType: 'private',
      name: 'Coverage',
      type: 'deduction',
      paymentMethod: 'postpaid',
      amount: 15,
      percentage: 20,
      ref: 'svc_1',
      refType: 'services',
      createdAt: 1_700_000_000,
    },
    { id: 'cov_2', ref: 'svc_2', amount: 0.5 },
  ],
  notifications: [
    {
      id: 'ntf_1',
      createdAt: 1_700_000_000_000,
      code: 'low-stock',
      type: 'warehouse',
      title: 'Title',
      body: 'Body  with   spaces and a long tail that goes on and on past sixty characters in all',
      meta: { k: 'v' },
      seenBy: ['acc_1', 'acc_2'],
    },
    { id: 'ntf_2', seenBy: 'acc_1', meta: [1, 2] },
  ],
};

describe('each column reads what it says it reads', () => {
  for (const res of [measures, coverages, notifications]) {
    it(res.group, () => {
      const records = RECORDS[res.group as keyof typeof RECORDS];
      const splitter = new JsonArraySplitter(true);
      const bytes = splitter.pushBytes(Buffer.from(JSON.stringify(records)));
      expect(bytes).toHaveLength(records.length);
      for (const c of [...columnsOf(res), ...wideColumnsOf(res)]) {
        expect(c.reads, c.key).toBeDefined();
        const read = memberPicker(c.reads ?? []);
        records.forEach((record, k) => {
          const picked = read(bytes[k], splitter.members[k] ?? []);
          expect(picked, `${c.key} of ${record.id}`).toBeDefined();
          for (const view of [{}, { account: 'acc_1' }]) {
            expect(cellText(c, picked!, view), `${c.key} of ${record.id}`).toBe(cellText(c, record, view));
          }
        });
      }
    });
  }
});
