import { z } from 'zod';
import { nonEmpty, timestamp } from './common.js';

export const notificationSchema = z.strictObject({
  id: nonEmpty('id'),
  createdAt: timestamp(),
  code: nonEmpty('code'),
  type: nonEmpty('type'),
  title: z.string(),
  body: z.string(),
  meta: z.record(z.string(), z.unknown()).optional(),
  seenBy: z.array(z.string()).default([]),
});

export type Notification = z.infer<typeof notificationSchema>;
