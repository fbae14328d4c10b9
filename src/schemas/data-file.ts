import type { z } from 'zod';
import { array, strictObject } from 'zod';
import { contractSchema, coverageSchema } from './coverages.js';
import { measureSchema } from './measures.js';
import { notificationSchema } from './notifications.js';

/** The server's data file; a missing key is an empty collection. */
export const dataFileSchema = strictObject({
  diagnosticMeasures: array(measureSchema).default([]),
  insuranceCoverages: array(coverageSchema).default([]),
  notifications: array(notificationSchema).default([]),
  contracts: array(contractSchema).default([]),
});

export type DataFile = z.infer<typeof dataFileSchema>;
export type CollectionName = keyof DataFile;
export const COLLECTIONS: CollectionName[] = ['diagnosticMeasures', 'insuranceCoverages', 'notifications', 'contracts'];
