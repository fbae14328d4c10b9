import type { z } from 'zod';
import type { Rec } from '../../formats/json/record.js';
import { COLLECTIONS, type CollectionName, dataFileSchema } from '../../schemas/data-file.js';

/** A record as the store holds it: a JSON object with its id. */
export type StoredRecord = { id: string } & Rec;

/** The stored record schema of each collection, from the data file's own schema: one source of rules. */
export const RECORD_SCHEMAS = Object.fromEntries(
  COLLECTIONS.map((c) => [c, (dataFileSchema.shape[c] as unknown as z.ZodDefault<z.ZodArray>).unwrap().element]),
) as Record<CollectionName, z.ZodType>;
