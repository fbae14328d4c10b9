// The floor of a request command built on the undici package (the design's HTTP client), by its public
// entry: one GET through a Pool, then the list printed as indented JSON. The bench bundles it as the CLI
// is bundled and runs it with Node's compile cache, as bin/clinadmin.cjs runs the CLI.
import { Pool } from 'undici';

const pool = new Pool(new URL(process.env.CLINADMIN_BASE_URL).origin);
pool
  .request({
    path: '/diagnostic-measures',
    method: 'GET',
    headers: { authorization: `Bearer ${process.env.CLINADMIN_TOKEN}` },
  })
  .then((res) => res.body.json())
  .then((list) => {
    process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
    return pool.close();
  });
