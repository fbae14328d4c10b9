// The floor of the single executable's request (issue 52): undici's GET and print, as bench/floor-undici.mjs
// does it, shaped as the CLI's module (`run(argv, overrides)`), so that bench/binary.mjs builds it into a
// single executable exactly as the CLI is built: the same entry, asset and warmed code cache, or the same
// startup snapshot. undici loads when run() starts, as the CLI's client loads once a command needs it (and a
// snapshot cannot hold it).
export async function run(_argv, overrides = {}) {
  const { Pool } = await import('undici');
  const env = overrides.env ?? process.env;
  const stdout = overrides.stdout ?? process.stdout;
  const pool = new Pool(new URL(env.CLINADMIN_BASE_URL).origin);
  const res = await pool.request({
    path: '/diagnostic-measures',
    method: 'GET',
    headers: { authorization: `Bearer ${env.CLINADMIN_TOKEN}` },
  });
  const list = await res.body.json();
  await new Promise((resolve) => stdout.write(`${JSON.stringify(list, null, 2)}\n`, resolve));
  await pool.close();
  return 0;
}
