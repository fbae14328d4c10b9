import type { SyncSpec } from '../../core/sync/prepare.js';

/** Measures are found by (test, name); the import checks clinical sense with lint. */
export async function measureSyncSpec(): Promise<SyncSpec> {
  const [{ measureCreateSchema }, { lintMeasure }] = await Promise.all([
    import('../../schemas/measures.js'),
    import('../../core/lint.js'),
  ]);
  return {
    noun: 'measure',
    plural: 'measures',
    path: '/diagnostic-measures',
    serviceSet: ['id', 'createdBy'],
    createOnly: ['account', 'facility', 'test'],
    key: (r) => `${r.test}\u0000${r.name}`,
    label: (r) => `test ${r.test} and name ${r.name}`,
    create: measureCreateSchema as never,
    lint: (r) => lintMeasure(r),
  };
}
