// Covers: src/resources/
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { factsSource } from '../../src/resources/derive.js';
import { FACTS, fieldFlags, RESOURCES } from '../../src/resources/index.js';

const writable = RESOURCES.filter((r) => r.schemas);

/** The zod type of a field, looking through .optional() and .default(). */
function typeOf(schema: z.ZodType): { type: string; element?: string; options?: string[] } {
  let t = schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } };
  while (t._zod.def.type === 'optional' || t._zod.def.type === 'default') t = t._zod.def.innerType as typeof t;
  const def = t._zod.def;
  if (def.type === 'array') return { type: 'array', element: typeOf(def.element as z.ZodType).type };
  if (def.type === 'enum') return { type: 'enum', options: Object.values(def.entries as Record<string, string>) };
  return { type: def.type };
}

describe('the resource registry', () => {
  it('keeps facts.ts equal to what the zod schemas say (npm run generate writes it)', () => {
    const committed = readFileSync(new URL('../../src/resources/facts.ts', import.meta.url), 'utf8');
    expect(committed).toBe(factsSource());
  });

  it('derives required, create-only and service-set fields from the schemas', () => {
    expect(FACTS.measures.required).toEqual(['name', 'test']);
    expect(FACTS.measures.createOnly).toEqual(['account', 'facility', 'test']);
    expect(FACTS.coverages.serviceSet).toEqual([
      'id',
      'createdBy',
      'insured',
      'insurer',
      'insurerType',
      'insurerSubtype',
    ]);
    const update = fieldFlags(RESOURCES[0]).filter((f) => !f.update);
    expect(update.map((f) => f.field).sort()).toEqual(['account', 'facility', 'test']);
  });

  for (const res of writable) {
    describe(res.group, async () => {
      const schemas = await res.schemas!();
      const shape = (schemas.create as unknown as { shape: Record<string, z.ZodType> }).shape;

      it('has an entry for every field the schema accepts, and no entry the schema lacks', () => {
        const missing = FACTS[res.group].fields.filter((f) => !(f in res.fields));
        expect(missing, 'add these fields to the registry').toEqual([]);
        const unknown = Object.keys(res.fields).filter((f) => !(f in shape));
        expect(unknown, 'these registry fields are not in the schema').toEqual([]);
      });

      it("gives each flag a kind and choices that agree with the field's schema", () => {
        for (const flag of fieldFlags(res)) {
          const t = typeOf(shape[flag.field]);
          const expected = {
            string: ['string', 'enum', 'unknown'],
            number: ['number'],
            list: ['array'],
            ranges: ['array'],
            'panic-ranges': ['array'],
          }[flag.kind];
          expect(expected, `${flag.flags} (${flag.kind}) against ${t.type}`).toContain(t.type);
          if (flag.kind === 'list') expect(t.element, flag.flags).toBe('string');
          if (flag.kind === 'ranges' || flag.kind === 'panic-ranges') expect(t.element, flag.flags).toBe('object');
          expect(flag.choices ? [...flag.choices] : undefined, flag.flags).toEqual(t.options);
        }
      });

      it('finds records by a natural key of required fields', () => {
        for (const k of res.key ?? []) expect(FACTS[res.group].required).toContain(k);
      });
    });
  }
});
