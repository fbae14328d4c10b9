import type { z } from 'zod';
import { array, literal, strictObject } from 'zod';
import { contractSchema, coverageSchema } from './coverages.js';
import { measureSchema } from './measures.js';
import { notificationSchema } from './notifications.js';

/**
 * The format of the data file this version writes. 2: ages are exact years, a band [ageMin, ageMax)
 * (schemas/ages.ts). A file without it is format 1 (ages in the old stored form, schemas/ages-legacy.ts), moved
 * to 2 once at start.
 */
export const DATA_FORMAT = 2;

/** The server's data file; a missing key is an empty collection. */
export const dataFileSchema = strictObject({
  formatVersion: literal(DATA_FORMAT).optional(),
  diagnosticMeasures: array(measureSchema).default([]),
  insuranceCoverages: array(coverageSchema).default([]),
  notifications: array(notificationSchema).default([]),
  contracts: array(contractSchema).default([]),
});

export type DataFile = z.infer<typeof dataFileSchema>;
export type CollectionName = Exclude<keyof DataFile, 'formatVersion'>;
export const COLLECTIONS: CollectionName[] = ['diagnosticMeasures', 'insuranceCoverages', 'notifications', 'contracts'];
