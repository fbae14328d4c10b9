/** A JSON object as a server, a file or a flag gives it: a record whose fields are not yet checked. */
export type Rec = Record<string, unknown>;

/** Whether a JSON value is a record (an object, not an array or null), as every list of the API holds. */
export const isRecord = (value: unknown): value is Rec =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
