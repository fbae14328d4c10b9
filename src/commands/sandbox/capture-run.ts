import { resolve } from 'node:path';
import type { Ctx } from '../../context.js';
import { EXIT, UsageError } from '../../errors.js';
import { writeFileAtomic } from '../../files/atomic.js';
import type { Rec } from '../../json/record.js';
import { unstyled } from '../../output/terminal.js';
import { RESOURCES } from '../../resources/index.js';
import { COLLECTIONS } from '../../schemas/data-file.js';
import { serializeDataFile } from '../../server/data-file.js';
import { RECORD_SCHEMAS, type StoredRecord } from '../../server/journal.js';
import { LoadError, loadState } from '../../server/load-file.js';
import type { State } from '../../server/store.js';
import { type Opts, withClient } from '../shared.js';

/** Fields a load fills in when a record comes without them: their absence is not the server's record's fault. */
const FILLED = new Set(['id', 'createdAt', 'createdBy', 'insured', 'insurer', 'seenBy']);

/**
 * The fields of `rec` that serve's schema for its collection refuses (a field it does not know, a value it
 * does not allow), dropped one by one until none is left; each drop is reported. A field that is missing is
 * left for the load to fill, or to refuse naming the record.
 */
function holdable(coll: keyof State, rec: Rec, dropped: (field: string, why: string) => void): Rec {
  let out = rec;
  for (let round = 0; round < 50; round++) {
    const checked = RECORD_SCHEMAS[coll].safeParse(out);
    if (checked.success) return out;
    const issue = checked.error.issues.find((i) => {
      const field = i.code === 'unrecognized_keys' ? i.keys[0] : String(i.path[0] ?? '');
      return field in out && !(FILLED.has(field) && out[field] === undefined);
    });
    if (!issue) return out;
    const field = issue.code === 'unrecognized_keys' ? issue.keys[0] : String(issue.path[0]);
    const why = issue.code === 'unrecognized_keys' ? 'serve does not know the field' : issue.message;
    dropped(field, why);
    const { [field]: _, ...rest } = out;
    out = rest;
  }
  return out;
}

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
  await withClient(ctx, opts, async ({ client }) => {
    for (const res of RESOURCES) raw[res.collection] = await client.list<Rec>(res.path);
  });
  const notes: string[] = [];
  for (const res of RESOURCES) {
    raw[res.collection] = raw[res.collection].map((r, i) =>
      holdable(res.collection, r, (field, why) =>
        notes.push(`dropped ${res.plural} ${String(r.id ?? `#${i + 1}`)} ${field}: ${why}`),
      ),
    );
  }
  let state: State;
  try {
    state = loadState(raw, { account: 'captured' });
  } catch (err) {
    if (err instanceof LoadError)
      throw new UsageError(`the server's records cannot be held by serve: ${err.message}`, 'nothing was written');
    throw err;
  }
  await writeFileAtomic(out, serializeDataFile(state as Record<keyof State, StoredRecord[]>), 0o600);
  if (!opts.quiet) {
    // The server's ids and field names, and none of our colors.
    const stderr = unstyled(ctx.stderr);
    for (const n of notes) stderr.write(`${n}\n`);
    stderr.write(
      `captured ${state.diagnosticMeasures.length} measures, ${state.insuranceCoverages.length} coverages, ` +
        `${state.notifications.length} notifications and ${state.contracts.length} contracts into ${opts.out}\n`,
    );
  }
  return EXIT.ok;
}
