import { z } from 'zod';
import { contractSchema, coverageSchema } from './coverages.js';
import { measureSchema } from './measures.js';
import { notificationSchema } from './notifications.js';

/** The server's data file; a missing key is an empty collection. */
export const dataFileSchema = z.strictObject({
  diagnosticMeasures: z.array(measureSchema).default([]),
  insuranceCoverages: z.array(coverageSchema).default([]),
  notifications: z.array(notificationSchema).default([]),
  contracts: z.array(contractSchema).default([]),
});

export type DataFile = z.infer<typeof dataFileSchema>;
export type CollectionName = keyof DataFile;
export const COLLECTIONS: CollectionName[] = ['diagnosticMeasures', 'insuranceCoverages', 'notifications', 'contracts'];
