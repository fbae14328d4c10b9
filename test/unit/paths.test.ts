// Covers: src/strings.ts
import { describe, expect, it } from 'vitest';
import { withoutTrailingSlashes } from '../../src/strings.js';

describe('withoutTrailingSlashes', () => {
  it('drops every trailing slash and nothing else', () => {
    expect(withoutTrailingSlashes('/a/b//')).toBe('/a/b');
    expect(withoutTrailingSlashes('/a//b')).toBe('/a//b');
    expect(withoutTrailingSlashes('///')).toBe('');
    expect(withoutTrailingSlashes('')).toBe('');
  });

  it('reads a megabyte of slashes before a letter once (a regular expression tried every run of them)', () => {
    const text = `/${'/'.repeat(1_000_000)}x`;
    expect(withoutTrailingSlashes(text)).toBe(text);
  });
});
