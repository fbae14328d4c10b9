// The floor of `measures list -o table`: the list fetched through undici's public entry, parsed whole with
// JSON.parse, and a line a record of the table's columns (id, test, name, type, unit, the first reference
// range), joined by two spaces with no widths: the least any table costs that parses what it shows. The
// bench bundles it as the CLI is bundled and runs it with Node's compile cache.
import { Pool } from 'undici';

const range = (r) => (r ? `${r.min ?? ''}–${r.max ?? ''}` : '');

async function main() {
  const pool = new Pool(new URL(process.env.CLINADMIN_BASE_URL).origin);
  const res = await pool.request({
    path: '/diagnostic-measures',
    method: 'GET',
    headers: { authorization: `Bearer ${process.env.CLINADMIN_TOKEN}` },
  });
  const list = await res.body.json();
  let lines = '';
  for (const m of list) {
    lines += `${m.id}  ${m.test}  ${m.name}  ${m.type}  ${m.unit ?? ''}  ${range(m.referenceRanges?.[0])}\n`;
    if (lines.length > 65536) {
      if (!process.stdout.write(lines)) await new Promise((r) => process.stdout.once('drain', r));
      lines = '';
    }
  }
  process.stdout.write(lines);
  await pool.close();
}
main();
