'use strict';
// undici embeds its HTTP parser twice: with WebAssembly SIMD and without, for CPUs lacking it. The
// fallback (72 KB of base64) stays out of the bundle and loads from the installed undici when needed.
module.exports = require('undici/lib/llhttp/llhttp-wasm.js');
