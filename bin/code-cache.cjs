'use strict';
// Node 20 compiles every module from source on every run (Node 22 adds module.enableCompileCache).
// The build runs a few commands once and saves V8's code cache for each dist/ file they loaded, the
// functions compiled during those runs included; later runs start from it (measured: a request command
// ~15 ms faster, help ~5 ms). V8 rejects a cache made by another Node version or for other source, and
// the file is then compiled as usual: a stale cache costs speed, never correctness. Only large files use
// it (the entry and the undici and zod chunks): for the many 1-4 KB chunks a vm.Script costs more than
// it saves.
// The loader's own class, reached without require('node:module'), which would start the ES module loader.
const Module = module.constructor;
const { Script } = require('node:vm');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { dirname, join, relative, sep } = require('node:path');

const MIN_SOURCE = 50_000;
// NODE_DEBUG=clinadmin reports, per file, whether its cache was used, rejected or missing.
const debug = /\bclinadmin\b/i.test(process.env.NODE_DEBUG ?? '') ? (m) => process.stderr.write(`CLINADMIN ${process.pid}: ${m}\n`) : undefined;

/** Compiles dist/ files from dist/code-cache/; with `train`, (re)writes their caches at exit. */
exports.useCodeCache = function useCodeCache(distDir, main, train) {
  const cacheDir = join(distDir, 'code-cache');
  const compile = Module.prototype._compile;
  const scripts = [];
  Module.prototype._compile = function compileFromCache(content, filename) {
    if (content.length < MIN_SOURCE || !filename.startsWith(distDir + sep)) return compile.call(this, content, filename);
    const cacheFile = join(cacheDir, `${relative(distDir, filename)}.bin`);
    let cachedData;
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // No cache yet (or not built): compile from source, as Node would.
    }
    const script = new Script(Module.wrap(content), { filename, cachedData });
    debug?.(`code cache ${cachedData === undefined ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used'} for ${relative(distDir, filename)}`);
    if (train) scripts.push({ script, cacheFile });
    const mod = this;
    const require = (id) => mod.require(id);
    require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
    require.main = main;
    require.cache = Module._cache;
    return script.runInThisContext().call(mod.exports, mod.exports, require, mod, filename, dirname(filename));
  };
  if (!train) return;
  process.on('exit', () => {
    for (const { script, cacheFile } of scripts) {
      try {
        mkdirSync(dirname(cacheFile), { recursive: true });
        writeFileSync(`${cacheFile}.tmp`, script.createCachedData());
        renameSync(`${cacheFile}.tmp`, cacheFile);
      } catch (err) {
        // A cache that cannot be written costs speed later, never this command its result.
        process.stderr.write(`warning: could not save the code cache ${cacheFile}: ${err.message}\n`);
      }
    }
  });
};
