'use strict';
// The entry of a single executable built from a V8 startup snapshot (SEA's useSnapshot), which the bench
// builds beside the shipped file to measure what a snapshot costs and saves (bench/binary.mjs). Run once,
// by the Node that builds, with --build-sea: it compiles the program's module (SNAP_APP, a script as
// scripts/sea-load.cjs wraps it), runs its top level, runs the commands of SNAP_WARM (JSON) into a sink so
// their functions are compiled, and leaves the heap to the snapshot. undici (SNAP_UNDICI) is compiled here
// but run only after the restore: its module loads Node's HTTP parser and http2 bindings, which a snapshot
// cannot hold ("global handle not serialized"). With SNAP_EAGER it is compiled whole (V8's --no-lazy), as a
// code cache cannot carry it: V8 refuses any code cache made outside this very snapshot ("read-only snapshot
// checksum mismatch"). Everything a run depends on (argv, environment, streams, clock) is read after the
// restore, by the function given to setDeserializeMainFunction.
const { readFileSync } = require('node:fs');
const { PassThrough } = require('node:stream');
const { setFlagsFromString, startupSnapshot } = require('node:v8');
const { Script } = require('node:vm');

const compile = (file, whole) => {
  if (whole) setFlagsFromString('--no-lazy');
  const fn = new Script(readFileSync(file, 'utf8'), { filename: file }).runInThisContext();
  if (whole) setFlagsFromString('--lazy');
  return fn;
};
const undiciModule = compile(process.env.SNAP_UNDICI, process.env.SNAP_EAGER === '1');
let undici;
const load = (id) => {
  if (id !== 'undici') return require(id);
  if (!undici) {
    const module = { exports: {} };
    undiciModule(module.exports, require, module);
    undici = module.exports;
  }
  return undici;
};
const app = { exports: {} };
compile(process.env.SNAP_APP, false)(app.exports, load, app);

async function warm(commands) {
  const env = { NO_COLOR: '1', CI: '1', HOME: '/nonexistent', CLINADMIN_CONFIG_DIR: '/nonexistent/clinadmin' };
  for (const argv of commands) {
    const sink = new PassThrough().resume();
    const code = await app.exports.run(argv, { env, stdout: sink, stderr: sink, cwd: '/' });
    if (code !== 0) throw new Error(`snapshot warm-up: ${argv.join(' ')} exited ${code}`);
  }
}
warm(JSON.parse(process.env.SNAP_WARM || '[]'));

startupSnapshot.setDeserializeMainFunction(() => {
  process.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  app.exports.run(process.argv.slice(2)).then((code) => process.exit(code));
});
