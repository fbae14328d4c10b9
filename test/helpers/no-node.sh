#!/bin/sh
# Runs a command as on a machine without Node: in a mount namespace of its own (root), every node on PATH
# and at the usual places has /dev/null bound over it, the folders Node versions are cached in and the
# repo's node_modules and dist/ an empty tmpfs, so no node is left to run and PATH finds none.
# Usage: no-node.sh REPO COMMAND [ARG...]
set -eu
exec unshare --mount --propagation private -- sh -eu -c '
repo=$1; shift
# /dev/null over each node: not executable, so running one fails and command -v finds none.
IFS=:
for file in $(for dir in $PATH; do printf "%s/node:" "$dir"; done)/usr/bin/node:/usr/local/bin/node:/bin/node; do
  if [ -e "$file" ]; then mount --bind /dev/null "$(readlink -f "$file")"; fi
done
unset IFS
for dir in "${CLINADMIN_NODE_CACHE:-}" "${XDG_CACHE_HOME:-$HOME/.cache}/clinadmin-nodes" \
  "$HOME/.cache/clinadmin-nodes" "$HOME/.nvm" /usr/lib/node_modules /usr/local/lib/node_modules \
  "$repo/node_modules" "$repo/dist"; do
  if [ -n "$dir" ] && [ -d "$dir" ]; then mount -t tmpfs -o size=1m,mode=0755 none "$dir"; fi
done
if command -v node >/dev/null 2>&1; then
  echo "no-node.sh: a node is still on PATH at $(command -v node)" >&2
  exit 97
fi
exec "$@"
' no-node "$@"
