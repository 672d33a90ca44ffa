#!/usr/bin/env bash
# Lewis SA's instructions per proposed swap (one evaluation) under callgrind on the hard 9x9
# puzzles, several seeds and two windows of each run, for the checkout or for a given git
# revision (built in a temporary worktree with the harness of THIS checkout, as
# scripts/callgrind-kernels.sh does). The count of one move depends on the run's phase (a hot
# chain accepts more moves, and an accepted move costs more than a rejected one), so each run
# is measured over two windows, as the difference of two instruction counts over the
# difference of the moves made:
#   early  moves 1 000 to 201 000 (the first chains, hot: the most accepted moves)
#   late   moves 100 000 to 2 100 000 (the window of scripts/callgrind-kernels.sh)
# A run that solves its puzzle inside a window stops there: the window then ends at the
# solution (solved = true, long_moves below the window's end).
# Puzzles (PUZZLES, bank ids or puzzle lines): the bank's hard ones, mk_5star,
# mk_superdifficult, ai_escargot and reseda_hard, and one hard puzzle outside the bank (34
# givens), given as its line. Seeds (SEEDS): 0 to 4. Default
# configuration. One line per (puzzle, seed, window) is appended to
# results-bench/callgrind-lewis-sa-hard.csv (created with its header when absent):
#   revision,puzzle,seed,window,short_moves,long_moves,short_instructions,long_instructions,instructions_per_move,solved
# with instructions_per_move to two decimals, where revision is the short hash, with "+dirty" when crates/ differs from it in the checkout.
#   scripts/callgrind-lewis-sa-hard.sh            # this checkout
#   scripts/callgrind-lewis-sa-hard.sh e0e724b    # another revision
#   SEEDS="0" PUZZLES="mk_5star" scripts/callgrind-lewis-sa-hard.sh   # a subset
# Instruction counts do not move with the machine's load. Needs valgrind (Debian: apt-get
# install valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-}
puzzles=${PUZZLES:-mk_5star mk_superdifficult ai_escargot reseda_hard .5.3.....3.7..156..69..72.8..642..7.8.....42....7.5..97..8.4.1.59..6.3....49..8.2}
seeds=${SEEDS:-0 1 2 3 4}
out=$PWD/results-bench/callgrind-lewis-sa-hard.csv
here=$PWD
dir=$PWD
for s in $seeds; do
  [[ $s =~ ^[0-9]+$ ]] || { echo "callgrind-lewis-sa-hard.sh: seed '$s' is not a whole number" >&2; exit 2; }
done
if [ -n "$rev" ]; then
  label=$(git rev-parse --short "$rev^{commit}")
  dir=$(mktemp -d)
  trap 'git worktree remove --force "$dir" >/dev/null 2>&1 || true' EXIT
  git worktree add --detach "$dir" "$rev" >/dev/null
  mkdir -p "$dir/crates/lewis-sa/examples"
  cp "$here/crates/lewis-sa/examples/callgrind_lewis_sa.rs" "$dir/crates/lewis-sa/examples/"
else
  label=$(git rev-parse --short HEAD)
  if ! git diff --quiet HEAD -- crates; then label="$label+dirty"; fi
fi
target=${CARGO_TARGET_DIR:-$PWD/target}/callgrind-lewis-sa-hard-${rev:-head}
(cd "$dir" && CARGO_TARGET_DIR=$target cargo build --release --quiet -p lewis-sa --example callgrind_lewis_sa)
bin=$target/release/examples/callgrind_lewis_sa

# count <puzzle> <moves> <seed>: prints "<instructions> <generations> <evaluations> <solved>".
count() {
  local log
  log=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$log" "$bin" "$1" evaluations "$2" "$3" >"$log.out"
  local refs
  refs=$(sed -n 's/.*refs: *//p' "$log" | tr -d ,)
  echo "$refs $(cat "$log.out")"
  rm -f "$log" "$log.out"
}

[ -f "$out" ] || echo "revision,puzzle,seed,window,short_moves,long_moves,short_instructions,long_instructions,instructions_per_move,solved" >"$out"
for p in $puzzles; do
  for seed in $seeds; do
    for w in early:1000:201000 late:100000:2100000; do
      IFS=: read -r window short long <<<"$w"
      read -r i1 _ e1 _ < <(count "$p" "$short" "$seed")
      read -r i2 _ e2 s2 < <(count "$p" "$long" "$seed")
      if [ "$e2" -le "$e1" ]; then
        echo "callgrind-lewis-sa-hard.sh: $p seed $seed solved before move $short: no $window window" >&2
        continue
      fi
      per=$(awk -v a="$i1" -v b="$i2" -v m="$e1" -v n="$e2" 'BEGIN { printf "%.2f", (b - a) / (n - m) }')
      line="$label,$p,$seed,$window,$e1,$e2,$i1,$i2,$per,$s2"
      echo "$line" >>"$out"
      echo "$line"
    done
  done
done
