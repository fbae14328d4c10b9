'use strict';
// Stands in for node:assert inside undici, which calls it only as assert(value) to check its own
// invariants; the real module and its dependencies cost ~2.5 ms of every request command's start-up.
function assert(value, message) {
  if (value) return;
  const err = new Error(message === undefined ? 'assertion failed' : String(message));
  err.name = 'AssertionError';
  err.code = 'ERR_ASSERTION';
  throw err;
}
assert.ok = assert;
module.exports = assert;
