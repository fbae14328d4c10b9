// The floor of an import (issue #2's memory row): the same file read whole and parsed, then each record
// POSTed through an undici Pool, 48 in flight, as `measures import` sends them. No check, no plan, no
// summary; bundled as the CLI is, so its peak RSS is what any Node program doing the sending costs.
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

const records = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const pool = new Pool(new URL(process.env.CLINADMIN_BASE_URL).origin, { connections: 48 });
const headers = { authorization: `Bearer ${process.env.CLINADMIN_TOKEN}`, 'content-type': 'application/json' };
let next = 0;
const worker = async () => {
  while (next < records.length) {
    const body = JSON.stringify(records[next++]);
    const res = await pool.request({ path: '/diagnostic-measures', method: 'POST', headers, body });
    await res.body.dump();
    if (res.statusCode >= 300) throw new Error(`POST answered ${res.statusCode}`);
  }
};
Promise.all(Array.from({ length: 48 }, worker)).then(() => pool.close());
