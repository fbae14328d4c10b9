'use strict';
// Run by the pinned Node that builds the executable: loads the CLI as the executable will, runs typical
// commands in this process against a stand-in server, then writes V8's code cache of the CLI, which now
// holds every function those commands compiled. Usage: node sea-warm.cjs CLINADMIN_JS CACHE_OUT
const { readFileSync, writeFileSync, mkdtempSync, rmSync } = require('node:fs');
const { createServer } = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { PassThrough } = require('node:stream');
const { Script } = require('node:vm');
const { compileCli } = require('./sea-load.cjs');

const [text, out] = process.argv.slice(2);
const source = readFileSync(text, 'utf8');
const { cli, script } = compileCli(source, undefined, require);
const measure = { id: 'msr_warm', test: 'tst_warm', name: 'Warm-up', type: 'numeric', unit: 'g/dL' };
const server = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(req.url.endsWith('/msr_warm') ? measure : [measure]));
});
server.listen(0, '127.0.0.1', async () => {
  const home = mkdtempSync(join(tmpdir(), 'clinadmin-warm-'));
  // No config of the builder's: a folder of its own, and the server's URL and token from the environment.
  const env = {
    CLINADMIN_BASE_URL: `http://127.0.0.1:${server.address().port}`,
    CLINADMIN_TOKEN: 'warm-up',
    CLINADMIN_CONFIG_DIR: join(home, 'config'),
    HOME: home,
    NO_COLOR: '1',
    CI: '1',
  };
  const commands = [
    ['measures', 'list', '-o', 'json'],
    ['measures', 'list', '-o', 'table'],
    ['measures', 'show', 'msr_warm', '-o', 'json'],
    ['--help'],
    ['measures', 'create', '--help'],
  ];
  try {
    for (const argv of commands) {
      const stderr = new PassThrough();
      let said = '';
      stderr.on('data', (d) => (said += d));
      const code = await cli.run(argv, { env, stdout: new PassThrough().resume(), stderr, cwd: home });
      if (code !== 0) throw new Error(`warm-up: clinadmin ${argv.join(' ')} exited ${code}: ${said}`);
    }
    const cache = script.createCachedData();
    // A cache V8 would refuse costs every start a compile: refused here, the build fails instead.
    if (new Script(source, { filename: 'clinadmin.js', cachedData: cache }).cachedDataRejected) {
      throw new Error('warm-up: V8 refuses the code cache it just made');
    }
    writeFileSync(out, cache);
  } finally {
    server.close();
    rmSync(home, { recursive: true, force: true });
  }
  // The CLI's HTTP pool keeps idle sockets' timers, as its shim knows: exit once the cache is written.
  process.exit(0);
});
