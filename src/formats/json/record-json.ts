/**
 * Records are replaced, never changed in place, so each one's JSON is made once and reused by the
 * answer, the journal line and the data file's next rewrite until the record is replaced.
 */
const serialized = new WeakMap<object, string>();

export function recordJson(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value);
  let text = serialized.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    serialized.set(value, text);
  }
  return text;
}

/** A value whose JSON is already `text` (valid JSON made elsewhere): sendList writes it as it is. */
export function rawJson(text: string): object {
  const holder = {};
  serialized.set(holder, text);
  return holder;
}
