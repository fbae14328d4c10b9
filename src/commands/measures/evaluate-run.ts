import type { Ctx } from '../../context.js';
import { parseAge } from '../../core/ages.js';
import { evaluate, type Subject } from '../../core/interpret.js';
import { nearest } from '../../core/nearest.js';
import { listed } from '../../core/problems.js';
import { formatCritical, formatRange, type RangeLike } from '../../core/ranges.js';
import { measureSyncSpec } from '../../core/sync/measures-spec.js';
import { bodyOf, prepare } from '../../core/sync/prepare.js';
import { NotFoundError, UsageError } from '../../errors.js';
import type { Rec } from '../../formats/json/record.js';
import { readRecords } from '../../formats/records.js';
import { chooseFormat, present } from '../../output/present.js';
import { visible } from '../../output/text.js';
import { writeLines } from '../../output/text-out.js';
import { measures } from '../../resources/index.js';
import { byIdOrName } from '../resource/find.js';
import { enc, type Opts, withClient } from '../shared.js';

interface EvaluateOptions extends Opts {
  value?: number;
  si?: boolean;
  sex?: 'male' | 'female';
  age?: string;
  file?: string;
  name?: string;
  test?: string;
}

export async function evaluateMeasure(ctx: Ctx, o: EvaluateOptions, id: string | undefined): Promise<void> {
  // With --file the measure is named by --name, so a word where the id goes is one too many (a value with a
  // space left unquoted, `--age 3 days`): named as commander names the excess arguments of the id form.
  if (id !== undefined && o.file !== undefined)
    throw new UsageError(
      `too many arguments for 'evaluate': "${id}" (with --file, --name names the measure and no id is taken)`,
      'quote a value that holds a space, or leave out the word',
    );
  if (id === undefined && o.file === undefined)
    throw new UsageError('give a measure id, or --file with --name', 'clinadmin measures evaluate ID --value 4.2');
  if (o.value === undefined) throw new UsageError('--value is required: the result to interpret');
  const value = o.value;
  const subject: Subject = { sex: o.sex, age: o.age === undefined ? undefined : parseAge(o.age, '--age') };
  const m = id !== undefined ? await fromServer(ctx, o, id) : await fromFile(ctx, o);
  const result = evaluate(m as { referenceRanges?: RangeLike[]; panicRanges?: RangeLike[] }, value, subject, o.si);
  const assumed = [
    o.sex === undefined ? 'no sex given: only ranges for all sexes applied' : '',
    o.age === undefined ? 'no age given: only ranges for all ages applied' : '',
  ].filter(Boolean);
  if (['table', 'wide'].includes(chooseFormat(ctx, o.output)) && !o.fields && !o.query) {
    const unit = (o.si ? m.siunit : m.unit) as string | undefined;
    const shownUnit = unit ? ` ${visible(unit, true)}` : '';
    const lines = [
      `${result.interpretation} (${value}${shownUnit}, ${visible(String(m.name ?? id), true)})`,
      ...result.panic.map((r) => `  panic range:     ${formatCritical(r, m.unit as string, m.siunit as string)}`),
      ...result.reference.map((r) => `  reference range: ${formatRange(r, m.unit as string, m.siunit as string)}`),
      ...assumed.map((a) => `  ${a}`),
    ];
    await writeLines(ctx, lines);
    return;
  }
  await present(ctx, { ...result, ...(assumed.length > 0 ? { assumed } : {}) }, o);
}

async function fromServer(ctx: Ctx, o: EvaluateOptions, id: string): Promise<Rec> {
  // The id, else the name in any case (find.ts).
  return withClient(ctx, o, ({ client }) =>
    byIdOrName(client, measures, id, (at) => client.request<Rec>('GET', `${measures.path}/${enc(at)}`), true),
  );
}

/** The measure named in a catalog file, read as import reads it (JSON, NDJSON, FHIR), checked by its rules. */
async function fromFile(ctx: Ctx, o: EvaluateOptions): Promise<Rec> {
  if (o.name === undefined) throw new UsageError('--file needs --name: the measure to evaluate');
  const prep = await prepare(await measureSyncSpec(o.test), await readRecords(ctx, [o.file!]));
  if (prep.errors.length > 0)
    throw new UsageError(
      `${o.file} has errors; check it with measures lint`,
      undefined,
      listed(prep.errors, prep.errors.length, 'problem'),
    );
  const all = prep.records.map(bodyOf).filter((m) => o.test === undefined || m.test === o.test);
  // The exact name first, then the name in another case.
  const exact = all.filter((m) => m.name === o.name);
  const found = exact.length > 0 ? exact : all.filter((m) => String(m.name).toLowerCase() === o.name!.toLowerCase());
  if (found.length === 0) {
    const guess = nearest(
      o.name,
      all.map((m) => String(m.name)),
    );
    throw new NotFoundError(
      `${o.file} has no measure named ${o.name}${o.test ? ` in test ${o.test}` : ''}`,
      guess ? `did you mean ${JSON.stringify(guess)}?` : undefined,
    );
  }
  if (found.length > 1) throw new UsageError(`${o.file} has ${found.length} measures named ${o.name}`, 'give --test');
  return found[0];
}
