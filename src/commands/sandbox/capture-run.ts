import { resolve } from 'node:path';
import type { Ctx } from '../../context.js';
import { ApiError, DeadlineError, EXIT, UsageError } from '../../errors.js';
import { writeFileAtomic } from '../../files/atomic.js';
import type { Rec } from '../../formats/json/record.js';
import { unstyled } from '../../output/terminal.js';
import { RESOURCES } from '../../resources/index.js';
import { COLLECTIONS } from '../../schemas/data-file.js';
import { LoadError, loadState } from '../../server/service/load-file.js';
import { serializeDataFile } from '../../server/store/data-file.js';
import { RECORD_SCHEMAS, type StoredRecord } from '../../server/store/records.js';
import type { State } from '../../server/store/store.js';
import { counted } from '../../strings.js';
import { type Opts, withClient } from '../shared.js';

/** Fields a load fills in when a record comes without them: their absence is not the server's record's fault. */
const FILLED = new Set(['id', 'createdAt', 'createdBy', 'insured', 'insurer', 'seenBy']);

/**
 * The fields of `rec` that serve's schema for its collection refuses (a field it does not know, a value it
 * does not allow), dropped until none is left; each drop is reported. A field that is missing is left for
 * the load to fill; `blocked` names the first the load cannot fill (a required field), so the capture is
 * refused at this record rather than after the whole list.
 */
function holdable(coll: keyof State, rec: Rec, dropped: (fields: string[], why: string) => void) {
  let out = rec;
  for (let round = 0; round < 50; round++) {
    const checked = RECORD_SCHEMAS[coll].safeParse(out);
    if (checked.success) return { rec: out };
    const fieldOf = (i: (typeof checked.error.issues)[number]) => String(i.path[0] ?? '');
    const issue = checked.error.issues.find((i) =>
      i.code === 'unrecognized_keys'
        ? true
        : fieldOf(i) in out && !(FILLED.has(fieldOf(i)) && out[fieldOf(i)] === undefined),
    );
    if (!issue) {
      const missing = checked.error.issues.find((i) => !FILLED.has(fieldOf(i)));
      return { rec: out, blocked: missing && `${fieldOf(missing)}: ${missing.message}` };
    }
    // Every unknown field at once: a record of a thousand of them takes one round, not a thousand.
    const fields = issue.code === 'unrecognized_keys' ? issue.keys : [fieldOf(issue)];
    const why = issue.code === 'unrecognized_keys' ? 'serve does not know the field' : issue.message;
    const rest = { ...out };
    for (const field of fields) delete rest[field];
    dropped(fields, why);
    out = rest;
  }
  return { rec: out };
}

/** How many fields, and records, a note names; the rest are counted. A server's record may have any number. */
const NAMED = 10;
/** How much of a server's id or field name a note shows: its start and its length, past this. */
const SHOWN = 80;

const count = (n: number) => n.toLocaleString('en-US');
const shown = (text: string) =>
  text.length > SHOWN ? `${text.slice(0, SHOWN)}… (${count(text.length)} characters)` : text;

/** A note of fields dropped from one record: a few named, the rest counted, every name cut to its start. */
function droppedNote(place: string, fields: string[], why: string): string {
  const more = fields.length > NAMED ? ` and ${count(fields.length - NAMED)} more` : '';
  return `dropped ${place} ${fields.slice(0, NAMED).map(shown).join(', ')}${more}: ${why}`;
}

/** The capture refused, naming what serve cannot hold. */
function refuse(what: string): never {
  throw new UsageError(`the server's records cannot be held by serve: ${what}`, 'nothing was written');
}

/** How long a capture may take without --timeout: a server paging on without end is left within a minute. */
const CAPTURE_MS = 60_000;

/**
 * `sandbox capture --out FILE`: every record of the three resources from the server the profile points at,
 * read with GETs of the lists alone (paged as the client pages every list; a GET of one notification would
 * mark it seen), written as a data file `serve --load` starts from, with the contracts derived from the
 * coverages. What serve cannot hold is dropped and said, record and field, on stderr.
 */
export async function captureAction(ctx: Ctx, opts: Opts & { out?: string; quiet?: boolean }): Promise<number> {
  if (!opts.out) throw new UsageError('give the file to write with --out FILE');
  const out = resolve(ctx.cwd, opts.out);
  const raw = Object.fromEntries(COLLECTIONS.map((c) => [c, [] as Rec[]])) as unknown as Record<keyof State, Rec[]>;
  const notes: string[] = [];
  let unnoted = 0;
  const own = opts.deadline === undefined;
  const bounded = own ? { ...opts, deadline: { ms: CAPTURE_MS, from: performance.now() } } : opts;
  try {
    await withClient(ctx, bounded, async ({ client }) => {
      for (const res of RESOURCES) {
        const list = raw[res.collection];
        // Each record checked as it comes: the first serve cannot hold ends the capture, the rest unread.
        const record = (r: unknown) => {
          const place = `${res.plural} ${shown(String((r as Rec)?.id ?? `#${list.length + 1}`))}`;
          if (r === null || typeof r !== 'object' || Array.isArray(r)) refuse(`${place}: must be a JSON object`);
          const held = holdable(res.collection, r as Rec, (fields, why) => {
            if (notes.length < NAMED * NAMED) notes.push(droppedNote(place, fields, why));
            else unnoted++;
          });
          if (held.blocked) refuse(`${place}: ${held.blocked}`);
          list.push(held.rec);
        };
        await client.stream(
          res.path,
          { record, batchEnd: () => true, drained: async () => undefined },
          client.heldLimit,
        );
      }
    });
  } catch (err) {
    if (own && err instanceof DeadlineError)
      throw new ApiError(
        `sandbox capture did not finish within ${CAPTURE_MS / 1000} s; nothing was written`,
        undefined,
        [],
        'give --timeout SECONDS for a server that takes longer',
      );
    throw err;
  }
  let state: State;
  try {
    state = loadState(raw, { account: 'captured' });
  } catch (err) {
    if (err instanceof LoadError) refuse(err.message);
    throw err;
  }
  await writeFileAtomic(out, serializeDataFile(state as Record<keyof State, StoredRecord[]>), 0o600);
  if (!opts.quiet) {
    // The server's ids and field names, and none of our colors.
    const stderr = unstyled(ctx.stderr);
    for (const n of notes) stderr.write(`${n}\n`);
    if (unnoted > 0) stderr.write(`and ${count(unnoted)} more records or reasons with fields dropped\n`);
    stderr.write(
      `captured ${counted(state.diagnosticMeasures.length, 'measure')}, ` +
        `${counted(state.insuranceCoverages.length, 'coverage')}, ` +
        `${counted(state.notifications.length, 'notification')} ` +
        `and ${counted(state.contracts.length, 'contract')} into ${opts.out}\n`,
    );
  }
  return EXIT.ok;
}
