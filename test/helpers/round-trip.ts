import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cliOnServer } from './server.js';

// One round trip of a catalog through one export format, as a lab moves it between servers: serve A holds
// the catalog; its export imported into an empty serve B gives the same export again; and the file imported
// back into A plans nothing (`--dry-run --exit-code`). A failure says which step and shows both sides.

type Rec = Record<string, unknown>;
/** The property tests' fixed seed: the same catalogs on every run, so a failure is one to reproduce. */
export const SEED = 20261207;
export const FORMATS = ['json', 'csv', 'fhir', 'fhir-ndjson', 'fhir-bare', 'fhir-ndjson-bare', 'hl7'] as const;
export type Format = (typeof FORMATS)[number];

const EXT: Record<Format, string> = {
  json: 'json',
  csv: 'csv',
  fhir: 'fhir.json',
  'fhir-ndjson': 'ndjson',
  'fhir-bare': 'fhir.json',
  'fhir-ndjson-bare': 'ndjson',
  hl7: 'hl7',
};

const bare = (f: Format) => f.endsWith('-bare');
const RAW = JSON as unknown as { rawJSON: (t: string) => unknown; isRawJSON: (v: unknown) => boolean };
/** JSON parsed keeping each number's text (FHIR's 8.0 stays 8.0), as a FHIR server keeps it. */
const parseKeeping = (t: string) =>
  JSON.parse(t, (_k, v, c?: { source?: string }) => (typeof v === 'number' ? RAW.rawJSON(c!.source!) : v));
/** Every extension removed, at every depth, as a FHIR server that does not know ours keeps the file. */
const strip = (v: unknown): unknown =>
  RAW.isRawJSON(v) || v === null || typeof v !== 'object'
    ? v
    : Array.isArray(v)
      ? v.map(strip)
      : Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => k !== 'extension' && k !== 'modifierExtension')
            .map(([k, x]) => [k, strip(x)]),
        );

/** The file as a FHIR server without our extensions keeps it. */
function withoutExtensions(text: string, ndjson: boolean): string {
  if (!ndjson) return JSON.stringify(strip(parseKeeping(text)), null, 2);
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.stringify(strip(parseKeeping(l))))
    .join('\n')
    .concat('\n');
}

/**
 * The export's text with what names the server rather than the catalog made alike: ids (`msr_…`, `rr_…`, and
 * FHIR's `msr-…`) numbered by first appearance, HL7's times of export.
 */
export function sameServerText(text: string): string {
  const seen = new Map<string, number>();
  return text
    .replace(/\b(msr|rr)[_-]([A-Za-z0-9_-]+)/g, (_m, kind: string, id: string) => {
      // FHIR's id element writes `_` as `-`: one id, whichever way it is written.
      const key = id.replace(/-/g, '_');
      if (!seen.has(key)) seen.set(key, seen.size);
      return `${kind}#${seen.get(key)}`;
    })
    .replace(/\d{14}\+0000/g, 'TIME')
    .replace(/\d{14}-(\d)/g, 'TIME-$1');
}

/**
 * What a file says: without our extensions an interval with no range (our range of SI bounds alone, where the
 * SI unit is none of its own) says nothing, and the import leaves it out (kept on the server it came from).
 */
function said(text: string, format: Format): string {
  if (!bare(format)) return text;
  const drop = (r: Rec) => {
    const q = r.qualifiedInterval as Rec[] | undefined;
    if (!q) return r;
    const kept = q.filter((i) => i.range !== undefined);
    const { qualifiedInterval: _q, ...rest } = r;
    return kept.length > 0 ? { ...rest, qualifiedInterval: kept } : rest;
  };
  if (format === 'fhir-ndjson-bare')
    return text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.stringify(drop(parseKeeping(l))))
      .join('\n');
  const bundle = parseKeeping(text) as Rec;
  const entry = (bundle.entry as Rec[] | undefined)?.map((e) => ({ ...e, resource: drop(e.resource as Rec) }));
  return JSON.stringify({ ...bundle, ...(entry ? { entry } : {}) }, null, 2);
}

type Side = Awaited<ReturnType<typeof cliOnServer>>;

async function exported(side: Side, format: Format): Promise<string> {
  const base = format.replace('-bare', '');
  const file = `out.${EXT[format]}`;
  const r = await side.cli(['measures', 'export', '--format', base, '--out', file]);
  if (r.code !== 0) throw new Error(`export --format ${base}: ${r.stderr}`);
  const text = await readFile(join(side.dir, file), 'utf8');
  return bare(format) ? withoutExtensions(text, base === 'fhir-ndjson') : text;
}

/**
 * Imports `text` into `side`; a file without our extensions names no test, so it goes in one test at a time
 * (`--test`), its resources picked by the measure id each still carries in `identifier`.
 */
async function imported(side: Side, format: Format, text: string, testOf: Map<string, string>, extra: string[]) {
  const files: [string, string[]][] = [];
  if (!bare(format)) {
    await writeFile(join(side.dir, `in.${EXT[format]}`), text);
    files.push([`in.${EXT[format]}`, []]);
  } else {
    const ndjson = format === 'fhir-ndjson-bare';
    const resources = ndjson
      ? text.split('\n').filter((l) => l.trim() !== '')
      : ((parseKeeping(text) as Rec).entry as Rec[]).map((e) => JSON.stringify(e.resource));
    const byTest = new Map<string, string[]>();
    for (const r of resources) {
      const id = String(((JSON.parse(r) as Rec).identifier as Rec[])[0].value);
      const test = testOf.get(id)!;
      byTest.set(test, [...(byTest.get(test) ?? []), r]);
    }
    for (const [test, list] of byTest) {
      const name = `in-${test}.${EXT[format]}`;
      const body = ndjson
        ? `${list.join('\n')}\n`
        : JSON.stringify({
            resourceType: 'Bundle',
            type: 'collection',
            entry: list.map((r) => ({ resource: parseKeeping(r) })),
          });
      await writeFile(join(side.dir, name), body);
      files.push([name, ['--test', test]]);
    }
  }
  const outs = [];
  for (const [file, args] of files) outs.push(await side.cli(['measures', 'import', file, ...args, ...extra]));
  return outs;
}

/** Serve A holding `catalog`, for round trips in every format. */
export async function holding(catalog: Rec[]) {
  const a = await cliOnServer({ events: false });
  for (const m of catalog) {
    const r = await a.s.call('POST', '/diagnostic-measures', m);
    if (r.status !== 200) throw new Error(`serve refused a generated measure: ${JSON.stringify(r.body)}`);
  }
  const list = (await a.s.call('GET', '/diagnostic-measures')).body as Rec[];
  const testOf = new Map(list.map((m) => [String(m.id), String(m.test)]));
  return { a, testOf };
}

/** The round trip of one format; a string saying what differed, or undefined when all holds. */
export async function roundTrip(a: Side, testOf: Map<string, string>, format: Format): Promise<string | undefined> {
  const first = await exported(a, format);
  const b = await cliOnServer({ events: false });
  try {
    for (const r of await imported(b, format, first, testOf, []))
      if (r.code !== 0) return `${format}: import into an empty serve exited ${r.code}: ${r.stderr}`;
    const second = await exported(b, format);
    if (sameServerText(said(second, format)) !== sameServerText(said(first, format)))
      return `${format}: the export of the empty serve differs:\n--- first\n${first}\n--- second\n${second}`;
    for (const r of await imported(a, format, first, testOf, ['--dry-run', '--exit-code']))
      if (r.code !== 0) return `${format}: re-import plans changes (exit ${r.code}):\n${r.stdout}${r.stderr}`;
    return undefined;
  } finally {
    await b.s.close();
  }
}
