// A JSON number's text says how many decimals it was written with (`8.0`, `0.10`); the number JSON.parse
// gives cannot. FHIR R4 makes them part of a decimal's meaning ("the precision of the decimal value has
// significance", https://hl7.org/fhir/R4/datatypes.html#decimal), so a FHIR resource is parsed with
// ECMAScript's JSON.parse source text access (the reviver's `context.source`, in every supported Node),
// and each number written with trailing zeros after its point is noted on the object holding it, under
// a symbol no JSON writer, spread or key listing sees. Our own catalogs say precision in their fields,
// and are parsed plainly.

const WRITTEN = Symbol('decimals as written');

type Holder = { [WRITTEN]?: Record<string, number> };

/** Decimals of a number's text when it ends in a zero after its point (`8.0` → 1, `0.10` → 2), else undefined. */
function trailingDecimals(source: string): number | undefined {
  const dot = source.indexOf('.');
  if (dot === -1 || source.charCodeAt(source.length - 1) !== 48 || /[eE]/.test(source)) return undefined;
  return source.length - dot - 1;
}

function note(this: unknown, key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value === 'number' && context?.source !== undefined) {
    const decimals = trailingDecimals(context.source);
    if (decimals !== undefined && this !== null && typeof this === 'object') {
      const holder = this as Holder;
      if (holder[WRITTEN] === undefined)
        Object.defineProperty(holder, WRITTEN, { value: {}, enumerable: false, writable: false });
      holder[WRITTEN]![key] = decimals;
    }
  }
  return value;
}

/**
 * JSON.parse, noting the decimals written of each number in a FHIR resource's text (one with `resourceType`):
 * what every input file and flag is parsed with. input.ts's parseJson adds the source's name and the position.
 */
export function parseKeepingDecimals(text: string): unknown {
  return text.includes('"resourceType"') ? JSON.parse(text, note as never) : JSON.parse(text);
}

/** The decimals `holder[key]` was written with, where its text had more than its number shows. */
export const writtenDecimals = (holder: unknown, key: string): number | undefined =>
  holder !== null && typeof holder === 'object' ? (holder as Holder)[WRITTEN]?.[key] : undefined;
