#!/usr/bin/env bash
# npm test: each part in order, the fast static checks first so they fail fast, then a table of how long each part
# took and the load average when it ended (a busy machine explains a slow run). TEST_PARTS overrides the list.
set -uo pipefail
cd "$(dirname "$0")/.."
# Node's on-disk compile cache: the parts start hundreds of Node processes (each unit test file, the CLI the tests
# spawn, the lab's stand-ins, Astro) that load the same modules; each load after the first skips most of the parsing
# and type stripping (a CLI run took 1.05 CPU-s with it, 1.6 without). Keyed by each file's content, so never stale.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$PWD/node_modules/.cache/node-compile-cache}"

read -r -a parts <<< "${TEST_PARTS:-lint unused check:astro test:unit build test:e2e test:lab}"
summary=()
status=0
started=$(date +%s)
for part in "${parts[@]}"; do
  begin=$(date +%s)
  npm run --silent "$part"
  status=$?
  summary+=("$(printf '%6d s  %-12s %s  (load %s)' "$(( $(date +%s) - begin ))" "$part" \
    "$([ "$status" -eq 0 ] && echo ok || echo "FAILED ($status)")" "$(cut -d' ' -f1-3 /proc/loadavg)")")
  [ "$status" -eq 0 ] || break
done
echo
echo "npm test: $(( $(date +%s) - started )) s on $(nproc) cores"
printf '%s\n' "${summary[@]}"
exit "$status"
