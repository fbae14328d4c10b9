// The floor of `measures list -o table`: the list fetched through undici's public entry, parsed whole with
// JSON.parse, and a line a record of the table's columns (id, test, name, type, unit, the first reference
// range), joined by two spaces with no widths: the least any table costs that parses what it shows. The
// bench bundles it as the CLI is bundled and runs it with Node's compile cache.
import { printList } from './floor-list.mjs';

const range = (r) => (r ? `${r.min ?? ''}–${r.max ?? ''}` : '');

printList((m) => `${m.id}  ${m.test}  ${m.name}  ${m.type}  ${m.unit ?? ''}  ${range(m.referenceRanges?.[0])}\n`);
