/**
 * Finds where a JSON text first goes wrong, in our words: JSON.parse's message is V8's, which changes with
 * V8 and which no test or doc can hold, and a lab admin fixing a 5,000-line file needs the line, the column
 * and what was expected there. It runs only after a parse has failed.
 */
function locateJsonError(text: string): { offset: number; message: string } {
  let i = 0;
  const fail = (message: string): never => {
    throw { offset: i, message };
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const describe = () =>
    i >= text.length ? 'unexpected end of input' : `unexpected character ${JSON.stringify(text[i])}`;
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(describe());
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail('unescaped control character in a string');
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('bad \\u escape in a string');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? '')) fail('bad escape in a string');
      }
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '' || m[0] === '-') fail(describe());
    i += m![0].length;
  };
  const value = (depth: number): void => {
    if (depth > 1000) fail('nesting is too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"')
          fail(`expected a property name in double quotes, found ${describe().replace('unexpected ', '')}`);
        string();
        ws();
        if (text[i] !== ':') fail(`expected ":" after a property name, found ${describe().replace('unexpected ', '')}`);
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail(`expected "," or "}", found ${describe().replace('unexpected ', '')}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail(`expected "," or "]", found ${describe().replace('unexpected ', '')}`);
      }
    }
    if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else fail(describe());
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail(`unexpected ${JSON.stringify(text[i])} after the end of the JSON value`);
    return { offset: text.length, message: 'invalid JSON' };
  } catch (err) {
    if (typeof err === 'object' && err !== null && 'offset' in err) return err as { offset: number; message: string };
    throw err;
  }
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** "line 2, column 26: expected ..." for a text JSON.parse refused. */
export function describeJsonError(text: string): string {
  const { offset, message } = locateJsonError(text);
  const { line, column } = lineColumn(text, offset);
  return `line ${line}, column ${column}: ${message}`;
}

export const MAX_DEPTH = 512;

/**
 * For a text JSON.parse accepted, and what it gave: the first key repeated within one object
 * (JSON.parse silently keeps the last, which would hide a typo in clinical data) or nesting past
 * MAX_DEPTH. Counting is cheap and allocates nothing, so it comes first: a repeated key is the only way
 * the text can hold more keys than the parsed value, and only then is the text searched for it.
 */
export function findAmbiguity(text: string, parsed: unknown): { offset: number; message: string } | undefined {
  const start = text.search(/\S/);
  const c = text.charCodeAt(start);
  if (c !== 123 && c !== 91) return undefined; // a lone string, number or literal holds neither
  const scan = scanValue(text, start);
  if (scan.tooDeepAt !== undefined)
    return { offset: scan.tooDeepAt, message: `nesting deeper than ${MAX_DEPTH} levels` };
  return repeatedKey(text, parsed, scan.keys);
}

/** The first repeated key of `text`, given how many keys a scan of it counted; undefined when none. */
export function repeatedKey(
  text: string,
  parsed: unknown,
  keys: number,
): { offset: number; message: string } | undefined {
  return keys === keysIn(parsed) ? undefined : firstRepeatedKey(text);
}

/** Offset of the closing quote of the string that opens at `i`: the next one after an even run of backslashes. */
function stringEnd(text: string, i: number): number {
  let j = text.indexOf('"', i + 1);
  while (j !== -1) {
    let k = j - 1;
    while (text.charCodeAt(k) === 92) k--;
    if ((j - 1 - k) % 2 === 0) return j;
    j = text.indexOf('"', j + 1);
  }
  return text.length;
}

/**
 * Walks the object or array that opens at `start` by its brackets outside strings (its grammar is
 * JSON.parse's to judge): where it ends, how many keys its objects hold, and where it first nests
 * deeper than `maxDepth` (the walk stops there; `end` is then unknown, as for an unclosed text).
 */
export function scanValue(
  text: string,
  start: number,
  maxDepth = MAX_DEPTH,
): { end?: number; keys: number; tooDeepAt?: number } {
  const inObject: boolean[] = [];
  let expectKey = false;
  let keys = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      if (expectKey) keys++;
      expectKey = false;
      i = stringEnd(text, i);
    } else if (c === 123 || c === 91) {
      inObject.push(c === 123);
      if (inObject.length > maxDepth) return { keys, tooDeepAt: i };
      expectKey = c === 123;
    } else if (c === 125 || c === 93) {
      inObject.pop();
      expectKey = false;
      if (inObject.length === 0) return { end: i + 1, keys };
    } else if (c === 44) {
      expectKey = inObject.length > 0 && inObject[inObject.length - 1];
    }
  }
  return { keys };
}

function keysIn(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) n += keysIn(v);
    return n;
  }
  for (const k in value) n += 1 + keysIn((value as Record<string, unknown>)[k]);
  return n;
}

function firstRepeatedKey(text: string): { offset: number; message: string } | undefined {
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const j = stringEnd(text, i);
      const keys = stack[stack.length - 1];
      if (expectKey && keys) {
        const raw = text.slice(i + 1, j);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (keys.has(key)) return { offset: i, message: `duplicate key "${key}" in one object` };
        keys.add(key);
      }
      expectKey = false;
      i = j;
    } else if (c === 123 || c === 91) {
      stack.push(c === 123 ? new Set() : null);
      expectKey = c === 123;
    } else if (c === 125 || c === 93) {
      stack.pop();
      expectKey = false;
    } else if (c === 44) {
      expectKey = stack[stack.length - 1] !== null && stack.length > 0;
    }
  }
  return undefined;
}
