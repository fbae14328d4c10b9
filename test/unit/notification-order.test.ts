// Covers: src/core/notifications.ts src/server/store/trim-oldest.ts
import { describe, expect, it } from 'vitest';
import { filterNotifications } from '../../src/core/notifications.js';
import type { StoredRecord } from '../../src/server/store/records.js';
import { trimOldest } from '../../src/server/store/trim-oldest.js';

// What `--keep-notifications N` keeps after a fold must be the first N the list showed before it. Changes
// made together are created in the same millisecond, and serve's ids are random, so the order among
// such ties must be one rule (here: id), not the order the records happened to be stored in.

const at = 1_764_216_000_000;
// Stored in this order (as a burst of changes makes them), ids not in order, five sharing one millisecond.
const stored: StoredRecord[] = [
  { id: 'ntf_old', createdAt: at - 60_000 },
  { id: 'ntf_m', createdAt: at },
  { id: 'ntf_z', createdAt: at },
  { id: 'ntf_a', createdAt: at },
  { id: 'ntf_q', createdAt: at },
  { id: 'ntf_c', createdAt: at },
  // The seed may count seconds: this one is the newest of all.
  { id: 'ntf_secs', createdAt: at / 1000 + 30 },
];

describe('the order of notifications, before and after a fold', () => {
  it('the list is newest first, ties by id, whatever order they were stored in', () => {
    const listed = filterNotifications([...stored].reverse(), {}).map((n) => n.id);
    expect(filterNotifications(stored, {}).map((n) => n.id)).toEqual(listed);
    expect(listed).toEqual(['ntf_secs', 'ntf_z', 'ntf_q', 'ntf_m', 'ntf_c', 'ntf_a', 'ntf_old']);
  });

  for (const keep of [1, 2, 3, 4, 5, 6]) {
    it(`--keep-notifications ${keep} keeps exactly the first ${keep} the list showed`, () => {
      const map = new Map(stored.map((r) => [r.id, r]));
      const before = filterNotifications(stored, {}).map((n) => n.id);
      trimOldest(map, keep);
      const after = filterNotifications([...map.values()], {}).map((n) => n.id);
      expect(after).toEqual(before.slice(0, keep));
    });
  }
});
