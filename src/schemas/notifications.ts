import type { z } from 'zod';
import { array, record, strictObject, string, unknown } from 'zod';
import { nonEmpty, timestamp } from './common.js';

export const notificationSchema = strictObject({
  id: nonEmpty('id'),
  createdAt: timestamp(),
  code: nonEmpty('code'),
  type: nonEmpty('type'),
  title: string(),
  body: string(),
  meta: record(string(), unknown()).optional(),
  seenBy: array(string()).default([]),
});

export type Notification = z.infer<typeof notificationSchema>;
