// The records the jobs' tests import and apply, in process (test/cli/jobs.test.ts) and as processes
// (test/e2e/jobs.test.ts): a valid measure and coverage, with whatever a test changes on top.

/** A numeric lipid measure named `name`. */
export const measureOf = (name: string, extra: Record<string, unknown> = {}) => ({
  test: 'tst_lipid',
  name,
  type: 'numeric',
  unit: 'mg/dL',
  referenceRanges: [{ max: 200 }],
  ...extra,
});

/** A deduction rule of the seeded contract ctr_acme_2026 named `name`. */
export const coverageOf = (name: string, extra: Record<string, unknown> = {}) => ({
  contract: 'ctr_acme_2026',
  name,
  type: 'deduction',
  paymentMethod: 'postpaid',
  amount: 10,
  ...extra,
});
