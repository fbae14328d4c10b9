#!/usr/bin/env bash
# The main job on the bundled server, from a fresh clone: start `clinadmin serve` with demo data,
# log in, and administer measures, coverages and notifications. Everything lives in a temp folder.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/cli.cjs ] || npm run build --silent
work=$(mktemp -d)
export CLINADMIN_CONFIG_DIR="$work/config"
clinadmin() { node bin/clinadmin.cjs "$@"; }
token=demo-$RANDOM$RANDOM
node bin/clinadmin.cjs serve --seed --port 0 --data "$work/data.json" --token "$token:acc_demo_admin:admin" \
  >"$work/serve.out" 2>"$work/serve.err" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do grep -q listening "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*' "$work/serve.out")
# Each step's line in bold at a terminal only, and never with NO_COLOR (https://no-color.org).
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s$ clinadmin %s%s\n' "$bold" "$*" "$plain"; }

step login --base-url "$url" --token-stdin --account acc_demo_admin
echo "$token" | clinadmin login --base-url "$url" --token-stdin --account acc_demo_admin
step measures list -o table
clinadmin measures list -o table
sodium=(--test tst_bmp --name Sodium --type numeric --unit mmol/L)
step measures create "${sodium[@]}" --reference-range '"135-145 age=18-120"' --panic-range '"120-160"' -o table
clinadmin measures create "${sodium[@]}" --reference-range "135-145 age=18-120" --panic-range "120-160" -o table
step coverages list -o table
clinadmin coverages list -o table
step notifications list -o table
clinadmin notifications list -o table
step whoami -o table
clinadmin whoami -o table
echo
echo "Done. The server ran at $url on $work/data.json and has been stopped."
