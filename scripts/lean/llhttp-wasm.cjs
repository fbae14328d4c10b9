'use strict';
// undici embeds its HTTP parser twice: with WebAssembly SIMD and without, for CPUs lacking it. The
// fallback (72 KB of base64) is copied beside the bundle as dist/llhttp-wasm.cjs and loaded only when
// needed; this stand-in lands in dist/chunks/, hence the path.
module.exports = require('../llhttp-wasm.cjs');
