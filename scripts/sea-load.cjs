'use strict';
// How the single executable turns its CLI asset into the CLI module; the build's warm-up loads it the same
// way, as V8 takes a code cache only for the very source it was made from.

const vm = require('node:vm');

/** The asset's text: the bundled CLI as one function of (exports, require, module). */
const wrap = (source) => `(function (exports, require, module) {${source}\n})`;

/** The CLI module from the text and, where the build made one, V8's code cache of it. */
function compileCli(text, cachedData, require) {
  const script = new vm.Script(text, { filename: 'clinadmin.js', cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require, module);
  return { cli: module.exports, script };
}

/** In the single executable: the CLI from its assets (the cache is absent where it was built for another CPU). */
function loadCli(sea, require) {
  const keys = sea.getAssetKeys();
  const cache = keys.includes('clinadmin.cache') ? Buffer.from(sea.getAsset('clinadmin.cache')) : undefined;
  return compileCli(sea.getAsset('clinadmin.js', 'utf8'), cache, require).cli;
}

module.exports = { wrap, compileCli, loadCli };
