#!/usr/bin/env bash
# Instructions per unit of work of four solver kernels under callgrind (valgrind), stable across
# machines and load, for the checkout or for a given git revision (built in a temporary
# worktree). Each kernel runs one seeded run with its crate's default configuration, through the
# example crates/<crate>/examples/callgrind_<crate>.rs of THIS checkout (copied into the
# temporary worktree, so every revision runs the same harness; it uses only public API that
# older revisions have too), at a short and a long budget; the difference of the two counts over
# the difference of the work removes the start-up (puzzle bank, allocation, initial
# population):
#   lewis-sa  per proposed swap (evaluation), mk_superdifficult, seed 4 (unsolved in the budget)
#   ret-ga    per generation, mk_1star, seed 0 (unsolved in the budget)
#   mk-ga     per generation, mk_superdifficult, seed 0 (unsolved in the budget)
#   reseda    per round, mk_superdifficult, seed 0 (one round against the whole attempt, which
#             ends unsolved when the distribution converges)
# One line per kernel is appended to results-bench/callgrind-kernels.csv (created with its
# header when absent):
#   revision,kernel,puzzle,seed,unit,short_units,long_units,short_instructions,long_instructions,instructions_per_unit,solved
# where revision is the short hash, with "+dirty" when crates/ differs from it in the checkout.
#   scripts/callgrind-kernels.sh            # this checkout
#   scripts/callgrind-kernels.sh 1ee7bd4    # another revision
#   KERNELS="lewis-sa ret-ga" scripts/callgrind-kernels.sh   # a subset
#   PROFILE=1 scripts/callgrind-kernels.sh  # also append each long run's hot spots to
#                                           # results-bench/callgrind-kernels-profile.md
# The profile lists the functions (inlined code counted where callgrind puts it: in the
# function it was inlined into) with the most instructions in the long run, as a share of
# its total (start-up included: under 8 % of the long run for every kernel).
# Beside the counts, the wall time of the long run without valgrind (the fastest of 3, in ms)
# goes to results-bench/callgrind-kernels-wall.csv with the 1-minute load average before it:
# on a shared machine the times vary with the load, the instruction counts do not.
# Needs valgrind (Debian: apt-get install valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-}
kernels=${KERNELS:-lewis-sa ret-ga mk-ga reseda}
out=$PWD/results-bench/callgrind-kernels.csv
wall=$PWD/results-bench/callgrind-kernels-wall.csv
here=$PWD
dir=$PWD
if [ -n "$rev" ]; then
  label=$(git rev-parse --short "$rev^{commit}")
  dir=$(mktemp -d)
  trap 'git worktree remove --force "$dir" >/dev/null 2>&1 || true' EXIT
  git worktree add --detach "$dir" "$rev" >/dev/null
  for k in $kernels; do
    mkdir -p "$dir/crates/$k/examples"
    cp "$here/crates/$k/examples/callgrind_${k//-/_}.rs" "$dir/crates/$k/examples/"
  done
else
  label=$(git rev-parse --short HEAD)
  if ! git diff --quiet HEAD -- crates; then label="$label+dirty"; fi
fi
target=${CARGO_TARGET_DIR:-$PWD/target}/callgrind-kernels-${rev:-head}
packages=()
for k in $kernels; do packages+=(-p "$k"); done
(cd "$dir" && CARGO_TARGET_DIR=$target cargo build --release --quiet "${packages[@]}" --examples)

# count <binary> <args...>: prints "<instructions> <generations> <evaluations> <solved>".
count() {
  local bin=$1
  shift
  local log
  log=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$log" "$bin" "$@" >"$log.out"
  local refs
  refs=$(sed -n 's/.*refs: *//p' "$log" | tr -d ,)
  echo "$refs $(cat "$log.out")"
  rm -f "$log" "$log.out"
}

# profile <binary> <args...>: the hot spots of one run, appended to the profile record.
profile() {
  local bin=$1
  shift
  local cg rec=$PWD/results-bench/callgrind-kernels-profile.md
  cg=$(mktemp)
  [ -f "$rec" ] || printf '%s\n' "# Callgrind hot spots of the kernels" "" \
    "Written by scripts/callgrind-kernels.sh with PROFILE=1: per revision and kernel, the functions" \
    "with the most instructions in the long run (self cost; inlined code counts in the function it" \
    "was inlined into), and their share of the run's total, start-up included." >"$rec"
  valgrind --tool=callgrind --dump-instr=no --callgrind-out-file="$cg" --log-file=/dev/null "$bin" "$@" >/dev/null
  {
    echo
    echo "## $label $k: $puzzle, seed $seed, $kind $long"
    echo
    echo "| function | instructions | share of the run |"
    echo "|---|---|---|"
    callgrind_annotate --auto=no --inclusive=no "$cg" 2>/dev/null \
      | sed -n 's/^ *\([0-9,]*\) ([^)]*) *[^:]*:\(.*\)$/\1\t\2/p' \
      | sed 's/ \[[^]]*\]$//' | tr -d , \
      | awk -F'\t' '
          { sum[$2] += $1 }
          END {
            for (f in sum) printf "%d\t%s\n", sum[f], f
          }' \
      | sort -rn | head -8 \
      | awk -F'\t' -v total="$i2" '{ gsub(/\|/, "\\|", $2); printf "| `%s` | %d | %.1f %% |\n", $2, $1, 100 * $1 / total }'
  } >>"$rec"
  rm -f "$cg"
}

[ -f "$out" ] || echo "revision,kernel,puzzle,seed,unit,short_units,long_units,short_instructions,long_instructions,instructions_per_unit,solved" >"$out"
for k in $kernels; do
  case $k in
    lewis-sa) puzzle=mk_superdifficult seed=4 kind=evaluations short=100000 long=2100000 unit=swap ;;
    ret-ga) puzzle=mk_1star seed=0 kind=generations short=1 long=2001 unit=generation ;;
    mk-ga) puzzle=mk_superdifficult seed=0 kind=generations short=1 long=20001 unit=generation ;;
    reseda) puzzle=mk_superdifficult seed=0 kind=generations short=1 long=2001 unit=round ;;
    *) echo "callgrind-kernels.sh: unknown kernel $k (lewis-sa, ret-ga, mk-ga, reseda)" >&2; exit 2 ;;
  esac
  bin=$target/release/examples/callgrind_${k//-/_}
  read -r i1 g1 e1 s1 < <(count "$bin" "$puzzle" "$kind" "$short" "$seed")
  read -r i2 g2 e2 s2 < <(count "$bin" "$puzzle" "$kind" "$long" "$seed")
  if [ "$unit" = swap ]; then u1=$e1 u2=$e2; else u1=$g1 u2=$g2; fi
  per=$(( (i2 - i1) / (u2 - u1) ))
  load=$(cut -d' ' -f1 /proc/loadavg)
  best=
  for _ in 1 2 3; do
    t0=$(date +%s%N)
    "$bin" "$puzzle" "$kind" "$long" "$seed" >/dev/null
    t=$(( ($(date +%s%N) - t0) / 1000 ))
    if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
  done
  [ -f "$wall" ] || echo "revision,kernel,puzzle,seed,unit,long_units,wall_ms,load_average" >"$wall"
  echo "$label,$k,$puzzle,$seed,$unit,$u2,$(( best / 1000 )).$(printf '%03d' $(( best % 1000 ))),$load" >>"$wall"
  if [ -n "${PROFILE:-}" ]; then profile "$bin" "$puzzle" "$kind" "$long" "$seed"; fi
  line="$label,$k,$puzzle,$seed,$unit,$u1,$u2,$i1,$i2,$per,$s2"
  echo "$line" >>"$out"
  echo "$line"
done
