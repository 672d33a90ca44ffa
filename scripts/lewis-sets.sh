#!/usr/bin/env bash
# The phase-transition instance sets (experiments/puzzles/lewis/): the family of Lewis (2007)
# and Lloyd & Amos (2020), a random complete grid with a fraction of its cells kept, for the
# orders 3, 4 and 5 (9x9, 16x16, 25x25) and the fractions 0.00 to 0.95 in steps of 0.05,
# 10 instances each, made by `sudoku-lab instances` with its defaults (complete grid:
# solver+symmetries; kept cells: exactly ceil(fraction x cells)) and seed 1. Each file starts
# with the command that made it, each instance's comment line says whether its solution is
# unique; uniqueness.csv counts them per order and fraction. Run again, it remakes every file
# byte for byte. Usage: scripts/lewis-sets.sh [OUT_DIR] [SIZE...]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-experiments/puzzles/lewis}
shift || true
sizes=${*:-9 16 25}
cargo build --release -q -p sudoku-lab
bin=target/release/sudoku-lab
mkdir -p "$out"
csv="$out/uniqueness.csv"
echo "size,fraction,instances,unique,multiple,unknown" > "$csv.tmp"
for size in $sizes; do
  for k in $(seq 0 19); do
    f=$(printf '0.%02d' $((k * 5)))
    file="$out/${size}x${size}-$f.txt"
    $bin instances --size "$size" --fraction "$f" --count 10 --seed 1 --out "$file" >/dev/null
    count() { grep -c "^# instance .*solution $1\$" "$file" || true; }
    echo "$size,$f,10,$(count unique),$(count multiple),$(count unknown)" >> "$csv.tmp"
  done
done
mv "$csv.tmp" "$csv"
