'use strict';
// Node 22 and later keep V8's compiled code between runs through a public API (module.enableCompileCache):
// a request command starts ~10 ms sooner. The cache lives in the user's cache folder, never in the
// installed package; NODE_COMPILE_CACHE, when set, wins, and NODE_DISABLE_COMPILE_CACHE turns it off.
// A cache that cannot be written is reported in the returned status only: it costs speed, never output.
const { enableCompileCache } = require('node:module');
const { join } = require('node:path');

const xdg = process.env.XDG_CACHE_HOME;
enableCompileCache?.(process.env.NODE_COMPILE_CACHE || (xdg ? join(xdg, 'clinadmin') : undefined));
