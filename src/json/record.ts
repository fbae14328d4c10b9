/** A JSON object as a server, a file or a flag gives it: a record whose fields are not yet checked. */
export type Rec = Record<string, unknown>;
