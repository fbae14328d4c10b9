'use strict';
// Node's own compile cache (module.enableCompileCache, on every supported Node), in a folder only this user can
// write: V8 runs whatever a cache file holds, so a folder another user could plant files in is never used.

const fs = require('node:fs');
const path = require('node:path');

/** Group- or other-writable. */
const SHARED = 0o022;

/**
 * The cache folder, made owner-only if missing, or undefined when it is not safe to use: the cache root
 * (XDG_CACHE_HOME or ~/.cache) owned by another user than this one or root, or writable by others; our
 * folders symlinks, not directories, owned by another user, or writable by group or others.
 */
function safeCacheDir(env) {
  const root = cacheRoot(env);
  if (!root || !path.isAbsolute(root) || typeof process.getuid !== 'function') return undefined;
  const uid = process.getuid();
  const app = path.join(root, 'clinadmin');
  const dir = path.join(app, 'compile-cache');
  try {
    if (!fs.existsSync(root)) fs.mkdirSync(root, { recursive: true, mode: 0o700 });
    const r = fs.statSync(root);
    if ((r.uid !== uid && r.uid !== 0) || r.mode & SHARED) return undefined;
    const made = fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const d of [app, dir]) {
      const s = fs.lstatSync(d);
      if (!s.isDirectory() || s.uid !== uid || s.mode & SHARED) return undefined;
    }
    if (made !== undefined) removeLegacy(app);
    return dir;
  } catch {
    // No cache costs speed, never output.
    return undefined;
  }
}

/**
 * Earlier versions kept V8 code, and a list of the commands run that could hold a token, in v8-* folders
 * of the same cache folder: removed once.
 */
function removeLegacy(app) {
  try {
    for (const old of fs.readdirSync(app)) {
      if (old.startsWith('v8-')) fs.rmSync(path.join(app, old), { recursive: true, force: true });
    }
  } catch {
    // Nothing there.
  }
}

function cacheRoot(env) {
  return env.XDG_CACHE_HOME || (env.HOME ? path.join(env.HOME, '.cache') : '');
}

/** Turns the cache on where the folder is safe; NODE_DISABLE_COMPILE_CACHE turns it off. */
function enableCompileCache(env) {
  const { enableCompileCache: enable } = require('node:module');
  if (env.NODE_DISABLE_COMPILE_CACHE) {
    // A folder an earlier version left still goes (a readdir that finds none).
    if (cacheRoot(env)) removeLegacy(path.join(cacheRoot(env), 'clinadmin'));
    return undefined;
  }
  const dir = safeCacheDir(env);
  if (dir) enable(dir);
  return dir;
}

module.exports = { enableCompileCache, safeCacheDir };
