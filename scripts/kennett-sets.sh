#!/usr/bin/env bash
# Regenerate the RESEDA Table 4 puzzle sets: 1000 puzzles per level from Michael Kennett's
# public-domain `sudoku` (Debian package `sudoku`; the paper used 1.0.1-3, Debian ships 1.0.5
# with the same classifier). The generator takes no seed, so a regeneration gives other
# puzzles: the committed sets in experiments/puzzles/kennett/ are the ones the results use.
#   apt-get install sudoku && scripts/kennett-sets.sh [COUNT]
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-1000}"
gen=/usr/games/sudoku
[ -x "$gen" ] || { echo "error: $gen not found: apt-get install sudoku" >&2; exit 2; }
version=$(dpkg-query -W -f='${Version}' sudoku 2>/dev/null || echo unknown)
out=experiments/puzzles/kennett
mkdir -p "$out"
for level in "very easy" "easy" "medium" "hard" "fiendish"; do
  file="$out/$(echo "$level" | tr ' ' '-').txt"
  tmp="$file.tmp"
  {
    echo "# $count puzzles of class \"$level\" from Kennett's sudoku $version:"
    echo "#   $gen -g$count -fcompact -c\"$level\""
    "$gen" -g"$count" -fcompact -c"$level"
  } > "$tmp"
  mv "$tmp" "$file"
done
echo "sudoku $version" > "$out/GENERATOR"
