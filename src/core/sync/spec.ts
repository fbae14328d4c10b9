import { FACTS, keyWords, naturalKey, type Resource } from '../../resources/index.js';
import type { SyncSpec } from './prepare.js';

/** What import and apply need of a resource, all from the registry and the facts of its schemas. */
export async function syncSpec(res: Resource, lint?: SyncSpec['lint']): Promise<SyncSpec> {
  const facts = FACTS[res.group];
  const { create } = await res.schemas!();
  return {
    noun: res.noun,
    plural: res.plural,
    path: res.path,
    serviceSet: facts.serviceSet,
    createOnly: facts.createOnly,
    key: (r) => naturalKey(res, r),
    label: (r) => keyWords(res, r),
    scope: res.key?.find((k) => k !== 'name'),
    create,
    lint,
  };
}
