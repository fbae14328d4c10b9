import type { Carrier } from '../../formats/kept.js';
import type { Prepared } from './prepare.js';

/**
 * A checked record as one line of the import's spool: where it came from, its id, name, key, scope,
 * place and whether it drew a warning as a JSON array, a tab (never raw in JSON text), then the body.
 */
export function toLine(p: Prepared): string {
  const { source, position, line, entry } = p.src;
  const meta = [source, position, line ?? null, entry ?? null, p.id ?? null, p.name, p.key, p.scope ?? null];
  meta.push(p.ordinal, p.file, p.warned, p.carrier ?? null);
  return `${JSON.stringify(meta)}\t${p.json}`;
}

export function fromLine(text: string): Prepared {
  const tab = text.indexOf('\t');
  const [source, position, line, entry, id, name, key, scope, ordinal, file, warned, carrier] = JSON.parse(
    text.slice(0, tab),
  ) as [
    string,
    number,
    number | null,
    number | null,
    string | null,
    unknown,
    string,
    string | null,
    number,
    number,
    boolean,
    Carrier | null,
  ];
  return {
    src: { source, position, ...(line !== null ? { line } : {}), ...(entry !== null ? { entry } : {}) },
    ...(id !== null ? { id } : {}),
    name,
    key,
    ...(scope !== null ? { scope } : {}),
    json: text.slice(tab + 1),
    warnings: [],
    ordinal,
    file,
    warned,
    ...(carrier !== null ? { carrier } : {}),
  };
}
