#!/usr/bin/env bash
# npm test: each part in order, the fast static checks first so they fail fast, then a table of how long each part
# took and the load average when it ended (a busy machine explains a slow run). TEST_PARTS overrides the list.
set -uo pipefail
cd "$(dirname "$0")/.."

read -r -a parts <<< "${TEST_PARTS:-lint check:astro test:unit build test:e2e test:lab}"
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
