#!/usr/bin/env bash
# The CSO puzzle sets (experiments/puzzles/cso/): 10 puzzles per size x difficulty band, made by
# `sudoku-lab generate` from random full grids of the exact solver, givens removed in a seeded
# random order while the solution stays unique, down to the band's given count (55 %, 45 % and
# 35 % of the cells, rounded: our choice, the thesis defines no difficulty levels). Each file
# starts with the command that made it; `sudoku-lab puzzles check` proves uniqueness, its output
# is kept in check.txt (and a test repeats it).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p sudoku-lab
bin=target/release/sudoku-lab
out=experiments/puzzles/cso
mkdir -p "$out"
: > "$out/check.txt.tmp"
for size in 6 9 12; do
  k=0
  for band in easy medium hard; do
    k=$((k + 1))
    case $band in easy) f=0.55 ;; medium) f=0.45 ;; hard) f=0.35 ;; esac
    givens=$(python3 -c "print(round($f * $size * $size))")
    seed=$((size * 100 + k))
    $bin generate --size "$size" --grids random --seed "$seed" --count 10 --givens "$givens" \
      --out "$out/${size}x${size}-$band.txt" >/dev/null
    {
      echo "## sudoku-lab puzzles check experiments/puzzles/cso/${size}x${size}-$band.txt"
      $bin puzzles check "$out/${size}x${size}-$band.txt"
      echo
    } >> "$out/check.txt.tmp"
  done
done
mv "$out/check.txt.tmp" "$out/check.txt"
grep -c "all with a unique solution" "$out/check.txt"
