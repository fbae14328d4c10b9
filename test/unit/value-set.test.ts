// Covers: src/formats/fhir/from-observation-definition.ts src/formats/fhir/value-set.ts
import { describe, expect, it } from 'vitest';
import { fromObservationDefinition } from '../../src/formats/fhir/from-observation-definition.js';
import type { Rec } from '../../src/formats/json/record.js';
import { parseRecords } from '../../src/formats/records.js';

/** A WeakMap that counts the answers it is given: each is one ValueSet read. */
class Counting extends WeakMap<Rec, string[]> {
  sets = 0;
  override set(key: Rec, value: string[]): this {
    if (!this.has(key)) this.sets++;
    return super.set(key, value);
  }
}

/** A Bundle with one ValueSet (FHIR R4 ValueSet.compose.include.concept) shared by `n` coded definitions. */
function bundle(n: number, concepts: string[]): string {
  const od = (i: number) => ({
    resourceType: 'ObservationDefinition',
    code: { text: `Finding ${i}` },
    category: [{ text: 'tst_coded' }],
    permittedDataType: ['CodeableConcept'],
    validCodedValueSet: { reference: 'ValueSet/answers' },
  });
  return JSON.stringify({
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      {
        resource: {
          resourceType: 'ValueSet',
          id: 'answers',
          status: 'active',
          compose: { include: [{ system: 'http://example.org/answers', concept: concepts.map((code) => ({ code })) }] },
          // The same answers again in an expansion, as a terminology server sends both: listed once each.
          expansion: { contains: concepts.map((code) => ({ system: 'http://example.org/answers', code })) },
        },
      },
      ...Array.from({ length: n }, (_, i) => ({ resource: od(i) })),
    ],
  });
}

describe('ValueSet answers', () => {
  it('reads a ValueSet that 60 definitions share once, and gives each its answers once', () => {
    const records = parseRecords(bundle(60, ['negative', 'positive', 'indeterminate']), 'bundle.json');
    const known = new Counting();
    const measures = records.slice(1).map((r) => fromObservationDefinition(r.value, undefined, known).value);
    expect(measures).toHaveLength(60);
    for (const m of measures) expect(m.choices).toEqual(['negative', 'positive', 'indeterminate']);
    expect(known.sets).toBe(1);
  });
});
