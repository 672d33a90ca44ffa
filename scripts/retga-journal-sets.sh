#!/usr/bin/env bash
# Substitute puzzle sets for Ret-GA journal Tables 2-4 (experiments/puzzles/retga-journal/):
# 25 puzzles per level with exactly the paper's given count (Easy 29, Medium 28, Hard 25). The
# paper's www.sudoku.com puzzles were never published, so these are generated.
#
# Rule, fixed before any set was generated:
#   pool  : puzzles 1..1000 of `sudoku-lab generate --seed G --count 1000 --givens G --size 9
#           --grids random` with G = 29 / 28 / 25 (random full grids of the exact solver,
#           givens removed in a seeded random order while the solution stays unique);
#   rating: the human-style logical grader sudoku_core::grade (1 naked single, 2 hidden single,
#           3 locked candidates, 4 pairs, 5 triples, 6 stuck with these techniques);
#   bands : easy = rating 1-2 (singles suffice), medium = 3-5 (needs locked candidates or
#           subsets, no more), hard = 6;
#   pick  : the first 25 pool puzzles, in generation order, whose rating is in the band
#           (the script fails if the pool holds fewer).
# No stochastic solver is involved. Writes easy.txt, medium.txt, hard.txt, check.txt (the
# `sudoku-lab puzzles check` output) and ratings.txt (the rating distribution of each pool and
# the ratings and exact-solver guesses of each set). Byte for byte reproducible.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q --locked -p sudoku-lab
cargo build --release -q --locked -p sudoku-core --example grade
bin=target/release/sudoku-lab
grade=target/release/examples/grade
out=experiments/puzzles/retga-journal
pool_size=1000
take=25
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
{
  echo "# Logical-grader ratings (sudoku_core::grade) of the Ret-GA journal substitute sets,"
  echo "# written by scripts/retga-journal-sets.sh. Rating: 1 naked single, 2 hidden single,"
  echo "# 3 locked candidates, 4 pairs, 5 triples, 6 stuck; guesses = sudoku_core::exact::guesses."
} > "$tmp/ratings.txt"
: > "$tmp/check.txt"
for level in easy medium hard; do
  case $level in
    easy) givens=29 lo=1 hi=2 band=1-2 table=2 ;;
    medium) givens=28 lo=3 hi=5 band=3-5 table=3 ;;
    hard) givens=25 lo=6 hi=6 band=6 table=4 ;;
  esac
  seed=$givens
  cmd="sudoku-lab generate --seed $seed --count $pool_size --givens $givens --size 9 --grids random"
  # shellcheck disable=SC2086
  $bin ${cmd#sudoku-lab } --out "$tmp/$level-pool.txt" >/dev/null
  [ "$(head -1 "$tmp/$level-pool.txt")" = "# $cmd" ] || { echo "error: unexpected pool header" >&2; exit 1; }
  "$grade" "$tmp/$level-pool.txt" > "$tmp/$level.tsv"
  {
    echo "# Ret-GA journal Table $table substitute ($level): $take puzzles with exactly $givens givens and"
    echo "# one solution each, made by scripts/retga-journal-sets.sh (see ../PROVENANCE.md)."
    echo "# Pool: $cmd"
    echo "# Rule: the first $take pool puzzles, in generation order, whose logical-grader rating"
    echo "# (sudoku_core::grade) is $band."
    awk -F'\t' -v lo="$lo" -v hi="$hi" -v g="$givens" -v take="$take" '
      NR > 1 && $2 == g && $3 >= lo && $3 <= hi && n < take {
        n++
        printf "# puzzle %d = pool puzzle %d: %d givens, rating %d (%s), %d guesses\n%s\n", n, $1, $2, $3, $4, $5, $6
      }
      END { if (n < take) { print "error: only " n " puzzles in the band" > "/dev/stderr"; exit 1 } }
    ' "$tmp/$level.tsv"
  } > "$tmp/$level.txt"
  {
    echo
    echo "## $level ($givens givens, band $band): pool of $pool_size, $cmd"
    awk -F'\t' -v lo="$lo" -v hi="$hi" -v take="$take" '
      NR > 1 {
        c[$3]++
        if ($3 >= lo && $3 <= hi && n < take) {
          n++; last = $1; s += $3; gs += $5
          if (n == 1 || $3 < mn) mn = $3; if (n == 1 || $3 > mx) mx = $3
          if (n == 1 || $5 < gmn) gmn = $5; if (n == 1 || $5 > gmx) gmx = $5
          t[$3]++
        }
      }
      END {
        printf "pool ratings 0-6:"; for (r = 0; r <= 6; r++) printf " %d", c[r]; printf "\n"
        printf "set: pool puzzles 1-%d scanned; ratings 0-6:", last
        for (r = 0; r <= 6; r++) printf " %d", t[r]; printf "\n"
        printf "set rating: mean %.2f, min %d, max %d\n", s / n, mn, mx
        printf "set guesses: mean %.2f, min %d, max %d\n", gs / n, gmn, gmx
      }
    ' "$tmp/$level.tsv"
  } >> "$tmp/ratings.txt"
  mv "$tmp/$level.txt" "$out/$level.txt"
  {
    echo "## sudoku-lab puzzles check experiments/puzzles/retga-journal/$level.txt"
    $bin puzzles check "$out/$level.txt"
    echo
  } >> "$tmp/check.txt"
done
mv "$tmp/check.txt" "$out/check.txt"
mv "$tmp/ratings.txt" "$out/ratings.txt"
grep -c "all with a unique solution" "$out/check.txt"
cat "$out/ratings.txt"
