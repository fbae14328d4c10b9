// The words a lab writes for a range's sex and kind, beside the field's own values: a sheet says `M` and
// `critical` where the API says `male` and `panic` (FHIR R4 names the critical-limits range `critical`).

export type Sex = 'all' | 'male' | 'female';

/** A sex as a lab writes it, any case: M, F, Male, Female; all, both or any for everyone. */
export const SEX_WORDS: Readonly<Record<string, Sex>> = {
  all: 'all',
  both: 'all',
  any: 'all',
  m: 'male',
  male: 'male',
  f: 'female',
  female: 'female',
};

/** A range's kind as a lab writes it, any case: `critical` (FHIR's name) or `panic`, `reference` or `normal`. */
export const RANGE_KIND_WORDS: Readonly<Record<string, 'reference' | 'panic'>> = {
  reference: 'reference',
  ref: 'reference',
  normal: 'reference',
  panic: 'panic',
  critical: 'panic',
  crit: 'panic',
};

export const sexOf = (text: string): Sex | undefined => SEX_WORDS[text.trim().toLowerCase()];
export const rangeKindOf = (text: string): 'reference' | 'panic' | undefined =>
  RANGE_KIND_WORDS[text.trim().toLowerCase()];
