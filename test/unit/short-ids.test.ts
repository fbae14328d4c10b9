// Covers: src/core/short-ids.ts
import { describe, expect, it } from 'vitest';
import { couldBePrefix, ShortIds } from '../../src/core/short-ids.js';

// As git abbreviates a hash: the shortest prefix no other known id begins with, never below a floor (8
// characters past the `ntf_` a registry id opens with), one length for all so the column aligns.

describe('ShortIds', () => {
  const a = 'ntf_3f2b9c1e-8d4a-4e7b-9a61-0c5d2e7f1a93';
  const b = 'ntf_3f2b9c1e-77aa-4e7b-9a61-0c5d2e7f1a94';
  const c = 'ntf_a0c4e5d6-1b2c-4d3e-8f90-123456789abc';

  it('gives the floor when nothing else shares it, and one more character past what two share', () => {
    expect(new ShortIds([c]).of(c)).toBe('ntf_a0c4e5d6');
    const ids = new ShortIds([a, b, c, 'ntf_queue_1']);
    expect([ids.of(a), ids.of(b), ids.of(c)]).toEqual(['ntf_3f2b9c1e-8', 'ntf_3f2b9c1e-7', 'ntf_a0c4e5d6-1']);
  });

  it('keeps short, escaped and odd ids whole', () => {
    const ids = new ShortIds(['ntf_stock_low', 'ntf_\\u001b-9a61-0c5d2e7f1a93-long']);
    expect(ids.of('ntf_stock_low')).toBe('ntf_stock_low');
    expect(ids.of('ntf_\\u001b-9a61-0c5d2e7f1a93-long')).toBe('ntf_\\u001b-9a61-0c5d2e7f1a93-long');
  });

  it('shows whole an id that shares a prefix already given, one it was not told of', () => {
    const ids = new ShortIds([a]);
    expect(ids.of(a)).toBe('ntf_3f2b9c1e');
    expect(ids.of(b)).toBe(b);
  });

  it('takes as a prefix only a word as long as the floor', () => {
    expect(couldBePrefix('ntf_3f2b9c1e')).toBe(true);
    expect(couldBePrefix('ntf_3f2b')).toBe(false);
    expect(couldBePrefix('3f2b9c1e')).toBe(true);
  });
});
