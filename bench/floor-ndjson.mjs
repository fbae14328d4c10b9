// The floor `measures list -o ndjson` is held to: the list fetched through undici's public entry, parsed
// whole with JSON.parse, and written a line a record, as any program that parses a list to print NDJSON
// does. The bench bundles it as the CLI is bundled and runs it with Node's compile cache.
import { Pool } from 'undici';

async function main() {
  const pool = new Pool(new URL(process.env.CLINADMIN_BASE_URL).origin);
  const res = await pool.request({
    path: '/diagnostic-measures',
    method: 'GET',
    headers: { authorization: `Bearer ${process.env.CLINADMIN_TOKEN}` },
  });
  const list = await res.body.json();
  let lines = '';
  for (const record of list) {
    lines += `${JSON.stringify(record)}\n`;
    if (lines.length > 65536) {
      if (!process.stdout.write(lines)) await new Promise((r) => process.stdout.once('drain', r));
      lines = '';
    }
  }
  process.stdout.write(lines);
  await pool.close();
}
main();
