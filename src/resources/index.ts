import { coverages } from './coverages.js';
import { FACTS } from './facts.js';
import { measures } from './measures.js';
import { notifications } from './notifications.js';
import type { FlagKind, Resource } from './registry.js';

export type { Facts } from './derive.js';
export { type FieldEntry, keyWords, naturalKey, type Resource, type SchemaSet } from './registry.js';
export { coverages, FACTS, measures, notifications };

export const RESOURCES: readonly Resource[] = [measures, coverages, notifications];

export const resourceByGroup = (group: string) => RESOURCES.find((r) => r.group === group);

/** A flag that sets one body field; create and update register their flags from the same list. */
export interface FieldFlag {
  field: string;
  flags: string;
  description: string;
  kind: FlagKind;
  choices?: readonly string[];
  /** Accepted on update too (false for create-only fields). */
  update: boolean;
  required: boolean;
}

/** The flags of a resource's writable fields, in the registry's order, with the facts from its schemas. */
export function fieldFlags(res: Resource): FieldFlag[] {
  const facts = FACTS[res.group];
  return Object.entries(res.fields).flatMap(([field, f]) =>
    f.flag
      ? [
          {
            field,
            flags: f.flag,
            description: f.help ?? '',
            kind: f.kind ?? 'string',
            choices: f.choices,
            update: !facts.createOnly.includes(field),
            required: facts.required.includes(field),
          },
        ]
      : [],
  );
}
