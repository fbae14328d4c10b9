// Covers: src/formats/json/json-error.ts
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findAmbiguity, MAX_DEPTH } from '../../src/formats/json/json-error.js';

/** The plain character-by-character scan that counting first replaced: the two must always agree. */
function reference(text: string): { offset: number; message: string } | undefined {
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const keys = stack[stack.length - 1];
      if (expectKey && keys) {
        const raw = text.slice(i + 1, j);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (keys.has(key)) return { offset: i, message: `duplicate key "${key}" in one object` };
        keys.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === '{' || c === '[') {
      stack.push(c === '{' ? new Set() : null);
      if (stack.length > MAX_DEPTH) return { offset: i, message: `nesting deeper than ${MAX_DEPTH} levels` };
      expectKey = c === '{';
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = stack[stack.length - 1] !== null && stack.length > 0;
    }
  }
  return undefined;
}

/** JSON text with, now and then, a key written twice (as JSON.parse would accept it). */
const jsonText = fc.tuple(fc.jsonValue(), fc.boolean(), fc.string()).map(([v, dup, key]) => {
  const text = JSON.stringify(v);
  if (!dup || !text.startsWith('{') || text === '{}') return text;
  const k = JSON.stringify(key);
  return `{${k}:1,${text.slice(1, -1)},${k}:2}`;
});

describe('findAmbiguity', () => {
  it('agrees with a plain scan on arbitrary JSON, escapes and repeated keys included', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(findAmbiguity(text, JSON.parse(text))).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a repeated key after escaped quotes and backslashes', () => {
    const text = '{"a\\\\":1,"b\\"c":2,"b\\"c":3}';
    expect(findAmbiguity(text, JSON.parse(text))).toEqual({
      offset: text.lastIndexOf('"b'),
      message: 'duplicate key "b"c" in one object',
    });
    const distinct = '{"a\\\\":1,"a\\\\\\\\":2}';
    expect(findAmbiguity(distinct, JSON.parse(distinct))).toBeUndefined();
  });

  it('counts keys JSON.parse keeps in unusual forms: __proto__, and numbers, which objects reorder', () => {
    for (const text of [
      '{"__proto__":1,"__proto__":2}',
      '{"b":{"x":1},"1":{"y":2},"1":3}',
      '[{"2":1,"10":2},{"2":3,"2":4}]',
    ]) {
      expect(findAmbiguity(text, JSON.parse(text)), text).toEqual(reference(text));
      expect(findAmbiguity(text, JSON.parse(text)), text).toBeDefined();
    }
  });
});
