// What the list floors share (bench/floor-ndjson.mjs, bench/floor-table.mjs): the list fetched through
// undici's public entry, parsed whole with JSON.parse, and `line(record)` written for each, in 64 KiB writes.
import { Pool } from 'undici';

export async function printList(line) {
  const pool = new Pool(new URL(process.env.CLINADMIN_BASE_URL).origin);
  const res = await pool.request({
    path: '/diagnostic-measures',
    method: 'GET',
    headers: { authorization: `Bearer ${process.env.CLINADMIN_TOKEN}` },
  });
  const list = await res.body.json();
  let lines = '';
  for (const record of list) {
    lines += line(record);
    if (lines.length > 65536) {
      if (!process.stdout.write(lines)) await new Promise((r) => process.stdout.once('drain', r));
      lines = '';
    }
  }
  process.stdout.write(lines);
  await pool.close();
}
