#!/usr/bin/env bash
# Measures the README's test command on this machine and writes the record the README and the
# docs cite (results-bench/suite.md): the revision, the number of tests passed, failed and
# ignored (summed over cargo's "test result:" lines), the wall time of the whole command (build
# included), the cores and the load average before and after. The record is written only when
# the suite passed, to a temporary file first, then renamed over the old one.
#
# Usage: scripts/measure-suite.sh [--shared]
#   --shared  say in the record that other builds ran on the machine at the same time (the
#             load average is recorded either way).
set -euo pipefail
cd "$(dirname "$0")/.."
shared=no
case "${1:-}" in
  --shared) shared=yes ;;
  "") ;;
  *) echo "measure-suite: unknown argument ${1} (only --shared)" >&2; exit 2 ;;
esac
out=results-bench/suite.md
log=$(mktemp)
trap 'rm -f "$log" "$out.tmp"' EXIT
rev=$(git rev-parse --short HEAD)
dirty=$(git status --porcelain --untracked-files=no | grep -q . && echo " (with uncommitted changes)" || true)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
if ! cargo test --workspace --locked --release >"$log" 2>&1; then
  echo "measure-suite: the suite failed; no record written (log: kept at $log.failed)" >&2
  cp "$log" "$log.failed"
  exit 1
fi
end=$(date +%s)
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
passed=$(grep -Eo '[0-9]+ passed' "$log" | awk '{s+=$1} END {print s+0}')
failed=$(grep -Eo '[0-9]+ failed' "$log" | awk '{s+=$1} END {print s+0}')
ignored=$(grep -Eo '[0-9]+ ignored' "$log" | awk '{s+=$1} END {print s+0}')
binaries=$(grep -cE '^test result:' "$log")
secs=$((end - start))
note="the machine was not shared"
[ "$shared" = yes ] && note="the machine was shared: other engineers built and tested at the same time, so the wall time is an upper bound"
cat >"$out.tmp" <<EOF
# The test suite on this machine

Written by \`scripts/measure-suite.sh\` (do not edit): \`cargo test --workspace --locked --release\`, the
README's test command, at revision $rev$dirty, on $(date -u +%Y-%m-%d).

| measure | value |
|---|---|
| tests passed | $passed |
| tests failed | $failed |
| tests ignored | $ignored |
| test binaries and doc-test runs | $binaries |
| wall time of the command, build included | $secs s |
| cores | $(nproc) |
| load average before / after | $load_before / $load_after |

Conditions: $note.
EOF
mv "$out.tmp" "$out"
echo "measure-suite: $out: $passed passed, $failed failed, $ignored ignored, ${secs} s"
