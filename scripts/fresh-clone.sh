#!/usr/bin/env bash
# Measures the README's two commands on a fresh clone of this repository's HEAD, with an empty
# target folder, and writes the record the README cites (results-bench/fresh-clone.md):
#   1. the reproduction:  cargo run --release --locked -p sudoku-lab -- reproduce reseda-table1 --out OUT
#   2. the tests:         cargo test --workspace --locked --release
# For each: its wall time (build included), the load average before and after, the crates it
# compiled. The record says which dependencies (crates outside the workspace) the second
# command compiled that the first had compiled already (the two commands share one build when
# there are none), how many tests passed, and whether the reproduction's runs.csv equals the
# committed results/reseda-table1/runs.csv but for the times (wall_ms, cpu_ms).
# Crates are taken from cargo's own registry cache: no network is used. The record is written
# only when both commands succeeded, to a temporary file first, then renamed over the old one.
#
# Usage: scripts/fresh-clone.sh [--shared]
#   --shared  say in the record that other work ran on the machine at the same time.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
shared=no
case "${1:-}" in
  --shared) shared=yes ;;
  "") ;;
  *) echo "fresh-clone: unknown argument ${1} (only --shared)" >&2; exit 2 ;;
esac
out=$repo/results-bench/fresh-clone.md
work=$(mktemp -d)
trap 'rm -rf "$work" "$out.tmp"' EXIT
rev=$(git rev-parse --short HEAD)
git clone -q --no-hardlinks "$repo" "$work/clone"
cd "$work/clone"
export CARGO_TARGET_DIR="$work/clone/target"
export CARGO_NET_OFFLINE=true

# Run one command: its wall seconds, load before and after, and its log.
timed() { # name, command...
  local name=$1
  shift
  local before after start end
  before=$(cut -d' ' -f1-3 /proc/loadavg)
  start=$(date +%s)
  if ! "$@" >"$work/$name.log" 2>&1; then
    echo "fresh-clone: '$*' failed (log: $work/$name.log, kept as $repo/target/fresh-clone-$name.log)" >&2
    mkdir -p "$repo/target"
    cp "$work/$name.log" "$repo/target/fresh-clone-$name.log"
    exit 1
  fi
  end=$(date +%s)
  after=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "$((end - start))|$before|$after"
}

one=$(timed reproduce cargo run --release --locked -p sudoku-lab -- reproduce reseda-table1 --out "$work/out")
two=$(timed tests cargo test --workspace --locked --release)

# Dependencies compiled: "Compiling NAME vX" lines without a local path (workspace crates show one).
deps() { { grep -E '^\s*Compiling ' "$1" || true; } | { grep -v '(/' || true; } | awk '{print $2" "$3}' | sort -u; }
deps "$work/reproduce.log" >"$work/deps1"
deps "$work/tests.log" >"$work/deps2"
rebuilt=$(comm -12 "$work/deps1" "$work/deps2" | tr '\n' ' ' | sed 's/ $//')
n1=$(wc -l <"$work/deps1")
n2=$(wc -l <"$work/deps2")
new_for_tests=$(comm -13 "$work/deps1" "$work/deps2" | awk '{print $1}' | tr '\n' ' ' | sed 's/ $//')

passed=$(grep -Eo '[0-9]+ passed' "$work/tests.log" | awk '{s+=$1} END {print s+0}')
failed=$(grep -Eo '[0-9]+ failed' "$work/tests.log" | awk '{s+=$1} END {print s+0}')
ignored=$(grep -Eo '[0-9]+ ignored' "$work/tests.log" | awk '{s+=$1} END {print s+0}')

# The reproduction against the committed folder, times left out.
same=$(python3 - "$work/out/runs.csv" "$repo/results/reseda-table1/runs.csv" <<'EOF'
import csv, sys
def rows(p):
    lines = [l for l in open(p) if not l.startswith('#')]
    r = list(csv.DictReader(lines))
    for x in r:
        x.pop('wall_ms', None)
        x.pop('cpu_ms', None)
    return r
a, b = rows(sys.argv[1]), rows(sys.argv[2])
print(f"yes, all {len(a)} rows" if a == b else f"NO ({len(a)} rows against {len(b)} committed)")
EOF
)

IFS='|' read -r s1 b1 a1 <<<"$one"
IFS='|' read -r s2 b2 a2 <<<"$two"
total=$((s1 + s2))
mins() { echo "$(($1 / 60)) min $(($1 % 60)) s"; }
note="the machine was not shared"
[ "$shared" = yes ] && note="the machine was shared: other work ran at the same time, so the wall times are upper bounds"
[ -z "$rebuilt" ] && rebuilt_text="none: the second command reuses every dependency the first built" || rebuilt_text="$rebuilt"
cat >"$out.tmp" <<EOF
# The README's two commands on a fresh clone

Written by \`scripts/fresh-clone.sh\` (do not edit): a fresh clone of revision $rev with an
empty target folder, on $(date -u +%Y-%m-%d), $(nproc) cores. Conditions: $note.

| command | wall time, build included | load average before / after |
|---|---|---|
| \`cargo run --release --locked -p sudoku-lab -- reproduce reseda-table1 --out OUT\` | $s1 s ($(mins "$s1")) | $b1 / $a1 |
| \`cargo test --workspace --locked --release\` | $s2 s ($(mins "$s2")) | $b2 / $a2 |
| both, one after the other | $total s ($(mins "$total")) | |

| measure | value |
|---|---|
| dependencies the first command compiled | $n1 |
| dependencies the second command compiled | $n2 (for the tests only: ${new_for_tests:-none}) |
| dependencies compiled by both commands (built twice) | $rebuilt_text |
| tests passed / failed / ignored | $passed / $failed / $ignored |
| the reproduction's runs.csv equals the committed one but for times | $same |
EOF
mv "$out.tmp" "$out"
echo "fresh-clone: wrote $out"
