#!/usr/bin/env bash
# The 1- vs 2-thread speed-up of embedded experiments (issue 11: target >= 1.8 on 2 cores for
# any experiment over 10 s). Each experiment runs in full twice, into temporary folders (the
# committed results are not touched), and the runs.csv of both are checked identical but
# wall_ms. Run it on an idle machine.
#   scripts/threads-speedup.sh                       # every embedded experiment (hours)
#   scripts/threads-speedup.sh reseda-table1 reseda-table2
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p sudoku-lab
bin=target/release/sudoku-lab
ids=("$@")
if [ ${#ids[@]} -eq 0 ]; then
  mapfile -t ids < <(ls experiments/*.toml | xargs -n1 basename | sed 's/\.toml$//')
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| experiment | 1 thread: s | 2 threads: s | speed-up | runs identical |"
echo "|---|---|---|---|---|"
for id in "${ids[@]}"; do
  declare -A secs=()
  for t in 1 2; do
    start=$(date +%s.%N)
    "$bin" reproduce "$id" --threads "$t" --out "$tmp/$id-$t" >/dev/null 2>&1
    end=$(date +%s.%N)
    secs[$t]=$(echo "$end - $start" | bc -l)
  done
  same=no
  if cmp -s <(cut -d, -f1-12,14- "$tmp/$id-1/runs.csv") <(cut -d, -f1-12,14- "$tmp/$id-2/runs.csv"); then
    same=yes
  fi
  printf '| %s | %.1f | %.1f | %.2fx | %s |\n' "$id" "${secs[1]}" "${secs[2]}" \
    "$(echo "${secs[1]} / ${secs[2]}" | bc -l)" "$same"
  rm -rf "$tmp/$id-1" "$tmp/$id-2"
done
