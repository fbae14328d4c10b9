// The floor `measures list -o ndjson` is held to: the list fetched through undici's public entry, parsed
// whole with JSON.parse, and written a line a record, as any program that parses a list to print NDJSON
// does. The bench bundles it as the CLI is bundled and runs it with Node's compile cache.
import { printList } from './floor-list.mjs';

printList((record) => `${JSON.stringify(record)}\n`);
