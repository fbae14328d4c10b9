// The sandbox row: a reset to a snapshot of 10,000 measures, against a restart of serve on the same data
// file (the other way a test suite gets a clean server), side by side in one run.

/** Milliseconds from spawning serve to its first answer, and from POST /_admin/reset to its answer. */
export async function sandboxSection({ start, serveFile, median, record, RUNS, TOKEN, log }) {
  log('sandbox: reset vs restart at 10,000 measures');
  const data = serveFile(10_000, 'sandbox');
  const post = (url, path, body) =>
    fetch(url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }).then(async (r) => {
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    });
  const resets = [];
  const restarts = [];
  // A suite keeps one server and resets it between tests: the resets are timed on one running server (a
  // snapshot read once, at its save or first use, then kept), the restarts one after another.
  let s = await start('clinadmin', { data });
  await post(s.url, '/_admin/snapshots/clean');
  for (let i = 0; i < RUNS; i++) {
    // A change, so each reset has something to undo, as between two tests.
    await post(s.url, '/diagnostic-measures', { test: 'tst_bench', name: `Between ${i}`, type: 'text' });
    const t = performance.now();
    await post(s.url, '/_admin/reset', { snapshot: 'clean' });
    resets.push(performance.now() - t);
  }
  for (let i = 0; i < RUNS; i++) {
    await s.stop();
    const t = performance.now();
    s = await start('clinadmin', { data });
    restarts.push(performance.now() - t);
  }
  await s.stop();
  const [reset, restart] = [median(resets), median(restarts)];
  record(
    'sandbox reset: `POST /_admin/reset` to a snapshot / a restart of serve on the same data (10,000 measures)',
    `${reset.toFixed(0)} ms vs ${restart.toFixed(0)} ms`,
    reset / restart,
    0.5,
    '<=',
  );
}
