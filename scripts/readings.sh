#!/usr/bin/env bash
# The reading searches, each a `sudoku-lab readings` race into results/:
#
#   scripts/readings.sh [--bin PATH] [--threads N] [--procedure v1|v2|v3] [NAME...]
#
# NAME (default: every race below, cheapest first):
#   validation-reseda   synthetic RESEDA tables from 3 hidden readings (Table 2's rows)
#   validation-ret-ga   synthetic Ret-GA tables from 6 hidden readings (Table 1's Easy and
#                       1 Star rows)
#   hidden              30 hidden-reading races of RESEDA on two-row tables of Table 1's easy
#                       puzzle, each at its own table seed and race seed (the real-run check
#                       of procedure v2's false elimination rate)
#   reseda              RESEDA Tables 1, 2 and 3, each alone (alpha 0.05) and jointly (each at
#                       alpha 0.05 / 3, survivors of all three in joint/joint.csv)
#   mk-ga               the GA column of Ret-GA Table 1 (the M&K GA's unstated options)
#   ret-ga              the Ret-GA column of Table 1 (384 readings)
#   ret-ga-fixed-period the four readings of that column that procedure v1 kept with
#                       reset_rule = fixed-period (best elitism, uniform-random rows, the
#                       ascending elite orders, either success_generation: one set of runs),
#                       raced alone, so that the round in which v2 eliminates them is the last
#                       one and the confirmation reruns them at the second seed
#   benbassat           Benbassat's distinct boards, standard and bucketing GA together (the
#                       clearing rows are single runs, which the counter test cannot test)
#
# Every race resumes from its folder (--resume): an interrupted search goes on where it
# stopped, and a finished one rewrites its outputs from its runs.csv without running anything.
# The folders of several races get summary.csv/summary.md (`sudoku-lab readings-summary`).
# --procedure P re-races each named race under the statistical procedure P (docs/readings.md):
# a folder made under another procedure is raced again from the runs it holds (the runs are
# the same under every procedure; only those P asks for beyond them are made), one already
# made under P resumes. Without it, each folder keeps its own procedure (v1 for the races committed
# before v2) and a new folder gets v3. E.g. `scripts/readings.sh --procedure v3 ret-ga`.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/sudoku-lab
threads=()
procedure=""
names=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --threads) threads=(--threads "$2"); shift 2 ;;
    --procedure) procedure=$2; shift 2 ;;
    -h|--help) sed -n '2,32p' "$0"; exit 0 ;;
    -*) echo "readings.sh: unknown flag $1" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
[ ${#names[@]} -gt 0 ] || names=(validation-reseda validation-ret-ga hidden reseda mk-ga ret-ga ret-ga-fixed-period benbassat)
if [ ! -x "$bin" ]; then
  cargo build --release --locked -p sudoku-lab >&2
fi
race() {
  if [ -z "$procedure" ]; then
    "$bin" readings "$@" "${threads[@]}" --resume
    return
  fi
  # Under another procedure a folder keeps its runs (a run does not depend on the procedure
  # that asked for it) and makes only those the procedure asks for beyond them.
  "$bin" readings "$@" "${threads[@]}" --procedure "$procedure" --resume
}

for name in "${names[@]}"; do
  case "$name" in
    validation-reseda)
      d=results/readings-validation-reseda
      # Hidden readings whose runs solve the puzzle (docs/readings.md: a hidden reading
      # that solves nothing makes a table of zeros, which cannot be told from any reading
      # that never solves, and whose runs only end at the budget).
      for hidden in cell_order=raw elite_selection=best-of-groups \
                    cell_order=raw,fallback=allowed-symbols; do
        race reseda-table2 --algorithm all --synthetic "$hidden" --out "$d/${hidden//[=,]/-}"
      done
      "$bin" readings-summary "$d" ;;
    validation-ret-ga)
      d=results/readings-validation-ret-ga
      # Table 1's Ret-GA rows of 1 Star and Easy (a committed copy, so reports name it).
      pub=experiments/readings/ret-ga-table1-easy-1star.csv
      # Cheapest first, so that every option of the table is varied by some hidden reading
      # (repetition_set by the fifth). The fifth and sixth solve 1 Star slowly, so their
      # synthetic tables put the cap there at the full budget: the sixth, Ret-GA as written,
      # costs hours (docs/readings.md).
      for hidden in elitism=best,crossover_rows=uniform-random \
                    elitism=best,reset_rule=fixed-period \
                    elitism=best,elite_order=best-first,success_generation=completed \
                    repetition_scope=all,pairing=random \
                    elitism=best,repetition_set=givens-of-unit \
                    elitism=alternate; do
        race ret-ga-table1 --algorithm literal --published "$pub" --synthetic "$hidden" \
          --out "$d/${hidden//[=,]/-}"
      done
      "$bin" readings-summary "$d" ;;
    hidden)
      d=results/readings-hidden
      # Two-row tables of RESEDA Table 1's easy puzzle (runs of a few dozen iterations), each
      # with one row the hidden readings mostly solve and one they rarely solve: TABLE names
      # the second row. Ten hidden readings (block_pick left at draw-in-most-certain-cell:
      # with argmax-cell-symbol a reading solves nothing there, and its table of zeros tests
      # nothing) on each of the three tables. Race k runs at master seed 1000 + k, its table
      # at 2000 + k: every race is independent of the others.
      k=0
      for table in pre05 perm05 perm07; do
        case $table in
          pre05) entries=both-0.5,precomputation-0.5 ;;
          perm05) entries=both-0.7,permutations-0.5 ;;
          perm07) entries=both-0.9,permutations-0.7 ;;
        esac
        for hidden in cell_order=renormalised cell_order=raw cell_order=box cell_order=static \
                      fallback=allowed-symbols elite_selection=best-of-groups \
                      cell_order=raw,fallback=allowed-symbols \
                      cell_order=box,elite_selection=best-of-groups \
                      cell_order=static,fallback=allowed-symbols \
                      cell_order=raw,elite_selection=best-of-groups,failed_result=most-probable; do
          k=$((k + 1))
          race reseda-table1 --algorithm "$entries" --synthetic "$hidden" \
            --seed $((1000 + k)) --synthetic-seed $((2000 + k)) \
            --out "$d/$(printf %02d $k)-$table-${hidden//[=,]/-}"
        done
      done
      "$bin" readings-summary "$d" ;;
    reseda)
      for t in 1 2 3; do
        race reseda-table$t --algorithm all --out results/readings-reseda-table$t
        race reseda-table$t --algorithm all --alpha 0.0166667 \
          --out results/readings-reseda-joint/table$t
      done
      "$bin" readings-summary results/readings-reseda-joint ;;
    mk-ga) race ret-ga-table1 --algorithm mk-ga --out results/readings-ret-ga-table1-mk-ga ;;
    ret-ga) race ret-ga-table1 --algorithm literal --out results/readings-ret-ga-table1-ret-ga ;;
    ret-ga-fixed-period)
      race ret-ga-table1 --algorithm literal --options elitism=best \
        --options crossover_rows=uniform-random --options repetition_scope=givens \
        --options repetition_set=present-in-unit --options elite_order=ascending,ascending-literal \
        --options pairing=consecutive --options reset_rule=fixed-period \
        --options success_generation=current,completed \
        --out results/readings-ret-ga-table1-best-fixed-period ;;
    benbassat) race benbassat --algorithm standard,bucketing --out results/readings-benbassat ;;
    *) echo "readings.sh: unknown race $name" >&2; exit 2 ;;
  esac
done
