import type { z } from 'zod';
import { strictObject, string, enum as zEnum } from 'zod';
import { createOnly, finite, nameText, nonEmpty, serviceSet, timestamp } from './common.js';
import { COVERAGE_TYPE_VALUES, PAYMENT_METHOD_VALUES, REF_TYPE_VALUES } from './values.js';

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  zEnum(values, { error: `must be one of: ${values.join(', ')}` });

const editable = {
  createdAt: timestamp().optional(),
  type: oneOf(COVERAGE_TYPE_VALUES),
  name: nameText('name'),
  paymentMethod: oneOf(PAYMENT_METHOD_VALUES).optional(),
  amount: finite().min(0, { error: 'must not be negative' }).optional(),
  percentage: finite()
    .min(0, { error: 'must be from 0 to 100' })
    .max(100, { error: 'must be from 0 to 100' })
    .optional(),
  ref: nonEmpty('ref').optional(),
  refType: oneOf(REF_TYPE_VALUES).optional(),
};

/** Fields the service copies from the referenced contract. */

const serviceSetFields = {
  id: serviceSet('id'),
  createdBy: serviceSet('createdBy'),
  insured: serviceSet('insured'),
  insurer: serviceSet('insurer'),
  insurerType: serviceSet('insurerType'),
  insurerSubtype: serviceSet('insurerSubtype'),
};

export const coverageCreateSchema = strictObject({
  ...editable,
  contract: nonEmpty('contract'),
  ...serviceSetFields,
});

export const coveragePatchSchema = strictObject({
  ...editable,
  type: editable.type.optional(),
  name: editable.name.optional(),
  contract: createOnly('contract'),
  ...serviceSetFields,
});

export const coverageSchema = strictObject({
  ...editable,
  // A name stored before the rule is still read (and shown escaped); create and update refuse a new one.
  name: nonEmpty('name'),
  contract: nonEmpty('contract'),
  id: nonEmpty('id'),
  createdAt: timestamp(),
  createdBy: string(),
  insured: string(),
  insurer: string(),
  insurerType: string().optional(),
  insurerSubtype: string().optional(),
});

export const contractSchema = strictObject({
  id: nonEmpty('id'),
  insured: nonEmpty('insured'),
  insurer: nonEmpty('insurer'),
  insurerType: string().optional(),
  insurerSubtype: string().optional(),
});

export type Coverage = z.infer<typeof coverageSchema>;
export type CoverageCreate = z.infer<typeof coverageCreateSchema>;
export type Contract = z.infer<typeof contractSchema>;

/** The three schemas the registry hands to the server, the CLI and the importer. */
export const coverageSchemas = { create: coverageCreateSchema, patch: coveragePatchSchema, entity: coverageSchema };
