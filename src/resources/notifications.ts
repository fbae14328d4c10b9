import type { Resource } from './registry.js';

/** Read-only: no key, no flags, no write schemas. */
export const notifications: Resource = {
  group: 'notifications',
  noun: 'notification',
  plural: 'notifications',
  path: '/notifications',
  collection: 'notifications',
  idPrefix: 'ntf',
  marksSeen: true,
  nameExample: 'stock',
  wide: [
    { key: 'seenByList', field: 'seenBy', header: 'SEEN BY', format: 'list' },
    { key: 'bodyExcerpt', field: 'body', header: 'BODY', format: 'excerpt', free: true },
  ],
  fields: {
    id: { header: 'ID', shown: true },
    createdAt: { header: 'TIME', shown: true, format: 'time' },
    type: { header: 'TYPE', shown: true },
    code: { header: 'CODE', shown: true },
    title: { header: 'TITLE', shown: true, free: true },
    seenBy: { header: 'SEEN', shown: true, format: 'seen' },
    body: { header: 'BODY', free: true },
    meta: { header: 'META' },
  },
};
