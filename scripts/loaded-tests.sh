#!/usr/bin/env bash
# The tests that start processes and wait on them (external solvers, faults, shards), run twice
# beside six busy loops on this machine's cores: they must pass on a loaded machine. The loops
# are ended on every exit of this script. Writes results-bench/loaded-tests.md.
set -uo pipefail
cd "$(dirname "$0")/.."
out=results-bench/loaded-tests.md
pids=()
for _ in 1 2 3 4 5 6; do (while :; do :; done) & pids+=($!); done
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
cargo test -p sudoku-lab --locked --test external --test faults --test shards --no-run >/dev/null 2>&1
log=$(mktemp)
status=0
for round in 1 2; do
  echo "round $round: load average $(cut -d' ' -f1 /proc/loadavg) at the start (six busy loops running, $(nproc) cores)" >>"$log"
  cargo test -p sudoku-lab --locked --no-fail-fast --test external --test faults --test shards 2>&1 \
    | grep -E "^test result|FAILED|panicked" >>"$log" || true
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
done
{
  echo "# Process tests beside six busy loops"
  echo
  echo "Made by \`scripts/loaded-tests.sh\` at revision $(git rev-parse --short HEAD) on $(date -u +%Y-%m-%d)."
  echo
  echo '```'
  cat "$log"
  echo '```'
} >"$out.tmp" && mv "$out.tmp" "$out"
rm -f "$log"
exit $status
