// The FHIR ValueSet row (issue #47): linting a Bundle whose one ValueSet of 20,000 concepts is the answer
// list of 60 coded ObservationDefinitions (about 360 KB), as a terminology export holds one. Each
// ValueSet's answers are read once, whatever the number of definitions that use it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The Bundle: a ValueSet of `concepts` codes and `definitions` ObservationDefinitions referencing it. */
export function valueSetBundle(concepts = 20_000, definitions = 60) {
  const concept = Array.from({ length: concepts }, (_, i) => ({ code: `A${i}` }));
  const valueSet = {
    resourceType: 'ValueSet',
    id: 'answers',
    url: 'http://example.org/fhir/ValueSet/answers',
    status: 'active',
    compose: { include: [{ system: 'http://example.org/fhir/CodeSystem/answers', concept }] },
  };
  const od = (i) => ({
    resourceType: 'ObservationDefinition',
    code: { coding: [{ system: 'http://example.org/fhir/CodeSystem/findings', code: `F${i}` }], text: `Finding ${i}` },
    category: [{ coding: [{ code: 'laboratory' }], text: 'tst_coded' }],
    permittedDataType: ['CodeableConcept'],
    validCodedValueSet: { reference: 'ValueSet/answers' },
  });
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      { fullUrl: 'http://example.org/fhir/ValueSet/answers', resource: valueSet },
      ...Array.from({ length: definitions }, (_, i) => ({ resource: od(i) })),
    ],
  };
}

export async function fhirSection({ median, record, wall, work, BIN, RUNS, log }) {
  const file = join(work, 'value-set-bundle.json');
  const text = JSON.stringify(valueSetBundle());
  writeFileSync(file, text);
  log(`fhir: a Bundle of ${(text.length / 1024).toFixed(0)} KB (a ValueSet of 20,000 concepts, 60 definitions)`);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(wall([BIN, 'measures', 'lint', file, '--test', 'tst_coded']));
  const s = median(runs) / 1000;
  record(
    'FHIR ValueSet: seconds to lint a Bundle of a 20,000-concept ValueSet used by 60 definitions',
    `${s.toFixed(2)} s`,
    s,
    2,
    '<=',
  );
}
