import type { DataFile } from '../schemas/data-file.js';

const DAY = 86_400_000;

/** Realistic demo data for `serve --seed`: a few tests' measures, contracts, coverages and messages. */
export function seedData(now = Date.now()): DataFile {
  const at = (daysAgo: number) => now - daysAgo * DAY;
  const by = 'local-admin';
  return {
    diagnosticMeasures: [
      {
        id: 'msr_hgb', createdAt: at(30), createdBy: by, account: 'acc_demo', facility: 'fac_central_lab',
        test: 'tst_cbc', name: 'Hemoglobin', type: 'numeric', unit: 'g/dL', siunit: 'g/L', set: 'Complete blood count',
        hl7IdentifierCod: '718-7', hl7IdentifierSys: 'LN',
        referenceRanges: [
          { id: 'rr_hgb_m', min: 13.5, minPrecision: 1, max: 17.5, maxPrecision: 1, simin: 135, simax: 175, sex: 'male', ageMin: 18, ageMax: 120 },
          { id: 'rr_hgb_f', min: 12, minPrecision: 1, max: 15.5, maxPrecision: 1, simin: 120, simax: 155, sex: 'female', ageMin: 18, ageMax: 120 },
          { id: 'rr_hgb_c', min: 11, minPrecision: 1, max: 14, maxPrecision: 1, simin: 110, simax: 140, sex: 'all', ageMin: 1, ageMax: 17 },
        ],
        panicRanges: [{ max: 7, maxPrecision: 1, simax: 70, sex: 'all' }, { min: 20, minPrecision: 1, simin: 200, sex: 'all' }],
      },
      {
        id: 'msr_wbc', createdAt: at(30), createdBy: by, account: 'acc_demo', facility: 'fac_central_lab',
        test: 'tst_cbc', name: 'White blood cells', type: 'numeric', unit: '10^3/uL', siunit: '10^9/L', set: 'Complete blood count',
        hl7IdentifierCod: '6690-2', hl7IdentifierSys: 'LN',
        referenceRanges: [{ id: 'rr_wbc', min: 4.5, minPrecision: 1, max: 11, maxPrecision: 1, simin: 4.5, simax: 11, sex: 'all', ageMin: 18, ageMax: 120 }],
        panicRanges: [{ max: 2, simax: 2, sex: 'all' }, { min: 30, simin: 30, sex: 'all' }],
      },
      {
        id: 'msr_k', createdAt: at(20), createdBy: by, account: 'acc_demo', facility: 'fac_central_lab',
        test: 'tst_bmp', name: 'Potassium', type: 'numeric', unit: 'mEq/L', siunit: 'mmol/L', set: 'Basic metabolic panel',
        hl7IdentifierCod: '2823-3', hl7IdentifierSys: 'LN',
        referenceRanges: [{ id: 'rr_k', min: 3.5, minPrecision: 1, max: 5.1, maxPrecision: 1, simin: 3.5, simax: 5.1, sex: 'all', ageMin: 18, ageMax: 120 }],
        panicRanges: [{ max: 2.5, simax: 2.5, sex: 'all' }, { min: 6.5, simin: 6.5, sex: 'all' }],
      },
      {
        id: 'msr_glu', createdAt: at(20), createdBy: by, account: 'acc_demo', facility: 'fac_central_lab',
        test: 'tst_bmp', name: 'Glucose, fasting', type: 'numeric', unit: 'mg/dL', siunit: 'mmol/L', set: 'Basic metabolic panel',
        hl7IdentifierCod: '1558-6', hl7IdentifierSys: 'LN',
        referenceRanges: [{ id: 'rr_glu', min: 70, max: 99, simin: 3.9, siminPrecision: 1, simax: 5.5, simaxPrecision: 1, sex: 'all', ageMin: 18, ageMax: 120 }],
        panicRanges: [{ max: 40, simax: 2.2, sex: 'all' }, { min: 450, simin: 25, sex: 'all' }],
      },
      {
        id: 'msr_hcg', createdAt: at(10), createdBy: by, account: 'acc_demo', facility: 'fac_central_lab',
        test: 'tst_preg', name: 'hCG, qualitative', type: 'posneg', description: 'Urine pregnancy screen', hl7IdentifierCod: '2106-3', hl7IdentifierSys: 'LN',
      },
      {
        id: 'msr_ua_color', createdAt: at(10), createdBy: by, account: 'acc_demo', facility: 'fac_central_lab',
        test: 'tst_ua', name: 'Urine color', type: 'multiplechoice', choices: ['colorless', 'yellow', 'amber', 'red', 'brown'], hl7IdentifierCod: '5778-6', hl7IdentifierSys: 'LN',
      },
    ],
    contracts: [
      { id: 'ctr_acme_2026', insured: 'org_central_lab', insurer: 'org_acme_health', insurerType: 'private', insurerSubtype: 'hmo' },
      { id: 'ctr_state_2026', insured: 'org_central_lab', insurer: 'org_state_plan', insurerType: 'public', insurerSubtype: 'state' },
    ],
    insuranceCoverages: [
      { id: 'cov_acme_cbc', createdAt: at(15), createdBy: by, contract: 'ctr_acme_2026', insured: 'org_central_lab', insurer: 'org_acme_health', insurerType: 'private', insurerSubtype: 'hmo', name: 'CBC copay', type: 'deduction', paymentMethod: 'postpaid', amount: 15, ref: 'svc_cbc', refType: 'services' },
      { id: 'cov_acme_bmp', createdAt: at(15), createdBy: by, contract: 'ctr_acme_2026', insured: 'org_central_lab', insurer: 'org_acme_health', insurerType: 'private', insurerSubtype: 'hmo', name: 'BMP coverage', type: 'override', paymentMethod: 'postpaid', percentage: 80, ref: 'svc_bmp', refType: 'services' },
      { id: 'cov_state_tubes', createdAt: at(12), createdBy: by, contract: 'ctr_state_2026', insured: 'org_central_lab', insurer: 'org_state_plan', insurerType: 'public', insurerSubtype: 'state', name: 'Collection tubes', type: 'deduction', paymentMethod: 'prepaid', percentage: 100, ref: 'isc_tubes', refType: 'inventory-stock-configurations' },
    ],
    notifications: [
      { id: 'ntf_queue_1', createdAt: at(2), code: 'new-queue-item', type: 'warehouse', title: 'New queue item: collection tubes', body: 'A request for 200 EDTA collection tubes is waiting in the warehouse queue.', meta: { queue: 'warehouse', item: 'isc_tubes', quantity: 200 }, seenBy: [] },
      { id: 'ntf_queue_2', createdAt: at(1), code: 'new-queue-item', type: 'warehouse', title: 'New queue item: reagent pack', body: 'A reagent pack for the chemistry analyzer was added to the queue.', meta: { queue: 'warehouse', item: 'isc_reagents', quantity: 4 }, seenBy: ['acc_support'] },
      { id: 'ntf_stock_low', createdAt: at(0.2), code: 'stock-low', type: 'warehouse', title: 'Stock low: urine cups', body: 'Only 12 urine collection cups are left in the central lab stock.', meta: { item: 'isc_urine_cups', remaining: 12 }, seenBy: [] },
    ],
  };
}
