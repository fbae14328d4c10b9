import type { z } from 'zod';
import { array, object, strictObject, string, unknown, enum as zEnum } from 'zod';
import {
  createOnly,
  finite,
  nameText,
  nonEmpty,
  panicRangeSchema,
  referenceRangeSchema,
  serviceSet,
  timestamp,
} from './common.js';
import { MEASURE_TYPE_VALUES } from './values.js';

const measureTypeSchema = zEnum(MEASURE_TYPE_VALUES, { error: `must be one of: ${MEASURE_TYPE_VALUES.join(', ')}` });

/** Fields a caller may set on create and on update. */
const editable = {
  createdAt: timestamp().optional(),
  name: nameText('name'),
  set: string().optional(),
  sets: array(string()).optional(),
  description: string().optional(),
  type: measureTypeSchema.optional(),
  choices: array(nonEmpty('choice')).optional(),
  unit: string().optional(),
  siunit: string().optional(),
  referenceRanges: array(referenceRangeSchema).optional(),
  panicRanges: array(panicRangeSchema).optional(),
  hl7IdentifierCod: string().optional(),
  hl7IdentifierSys: string().optional(),
  numericBreakdownMin: finite().optional(),
  numericBreakdownMax: finite().optional(),
  section: unknown().optional(),
};

const createOnlyFields = {
  account: nonEmpty('account').optional(),
  facility: nonEmpty('facility').optional(),
  test: nonEmpty('test'),
};

type MeasureRulesInput = {
  type?: string;
  choices?: string[];
  numericBreakdownMin?: number;
  numericBreakdownMax?: number;
};

/** Rules across fields; they hold for the whole record, so PATCH checks them on the merged result. */
export function checkMeasure(m: MeasureRulesInput, ctx: z.RefinementCtx): void {
  if ((m.type === 'multiplechoice' || m.type === 'checklist') && (!m.choices || m.choices.length === 0)) {
    ctx.addIssue({ code: 'custom', message: `a ${m.type} measure needs at least one choice`, path: ['choices'] });
  }
  if (
    m.numericBreakdownMin !== undefined &&
    m.numericBreakdownMax !== undefined &&
    m.numericBreakdownMin > m.numericBreakdownMax
  ) {
    ctx.addIssue({
      code: 'custom',
      message:
        `numericBreakdownMin (${m.numericBreakdownMin}) must not be greater than ` +
        `numericBreakdownMax (${m.numericBreakdownMax})`,
      path: ['numericBreakdownMax'],
    });
  }
}

/**
 * A reference range's id names one range of its measure (an update's `--set ID`, a plan's pairing). Checked on
 * what is written; a data file written before the rule still loads.
 */
function distinctRangeIds(m: { referenceRanges?: { id?: string }[] }, ctx: z.RefinementCtx): void {
  const first = new Map<string, number>();
  (m.referenceRanges ?? []).forEach((r, i) => {
    if (r.id === undefined) return;
    const at = first.get(r.id);
    if (at === undefined) first.set(r.id, i);
    else
      ctx.addIssue({
        code: 'custom',
        message: `is referenceRanges[${at}]'s id too`,
        path: ['referenceRanges', i, 'id'],
      });
  });
}

export const measureCreateSchema = strictObject({
  ...editable,
  ...createOnlyFields,
  id: serviceSet('id'),
  createdBy: serviceSet('createdBy'),
})
  .superRefine(checkMeasure)
  .superRefine(distinctRangeIds);

export const measurePatchSchema = strictObject({
  ...editable,
  name: editable.name.optional(),
  account: createOnly('account'),
  facility: createOnly('facility'),
  test: createOnly('test'),
  id: serviceSet('id'),
  createdBy: serviceSet('createdBy'),
})
  .superRefine(checkMeasure)
  .superRefine(distinctRangeIds);

/** A stored measure: what the service returns and what the data file holds. */
export const measureSchema = strictObject({
  ...editable,
  ...createOnlyFields,
  // A name stored before the rule is still read (and shown escaped); create and update refuse a new one.
  name: nonEmpty('name'),
  id: nonEmpty('id'),
  createdAt: timestamp(),
  createdBy: string(),
  referenceRanges: array(referenceRangeSchema.and(object({ id: string() }))).optional(),
}).superRefine(checkMeasure);

export type Measure = z.infer<typeof measureSchema>;

/** The three schemas the registry hands to the server, the CLI and the importer. */
export const measureSchemas = { create: measureCreateSchema, patch: measurePatchSchema, entity: measureSchema };
