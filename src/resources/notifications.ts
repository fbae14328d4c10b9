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
  // SEEN is your own status (seen or new); SEEN BY (the field seenBy, and seenByList as it was named
  // before) the accounts that have seen it.
  derived: [
    { key: 'seen', field: 'seenBy', header: 'SEEN', format: 'seen', shown: true },
    { key: 'seenByList', field: 'seenBy', header: 'SEEN BY', format: 'list' },
  ],
  wide: ['seenBy', { key: 'bodyExcerpt', field: 'body', header: 'BODY', format: 'excerpt', free: true }],
  fields: {
    id: { header: 'ID', shown: true },
    createdAt: { header: 'TIME', shown: true, format: 'time' },
    type: { header: 'TYPE', shown: true },
    code: { header: 'CODE', shown: true },
    title: { header: 'TITLE', shown: true, free: true, lead: true },
    seenBy: { header: 'SEEN BY', format: 'list' },
    body: { header: 'BODY', free: true },
    meta: { header: 'META' },
  },
};
