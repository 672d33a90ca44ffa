#!/usr/bin/env bash
# The performance measurements behind docs/performance.md, in one run, on an IDLE machine (the
# wall times mean something only then; the instruction counts do not depend on it). Each step
# reuses a committed script, which appends or writes its record under results-bench/:
#   callgrind  scripts/callgrind-kernels.sh with PROFILE=1: instructions per unit of work of the
#              kernels (callgrind-kernels.csv), their hot spots (callgrind-kernels-profile.md)
#              and wall times (callgrind-kernels-wall.csv), at the checkout (AFTER) and, with
#              --before REV, at REV (BEFORE, named per kernel in callgrind-before.csv; without
#              --before the BEFORE revisions already named there are kept, not re-measured:
#              instruction counts do not change with the machine)
#   threads    scripts/threads-speedup.sh: wall times at 1 and 2 threads, each runs.csv checked
#              identical but wall_ms (threads-speedup*.md); by default every experiment under
#              --max-seconds 300 with its full protocol into threads-speedup.md, and the six
#              that take hours with the reduced protocols of the committed records
#   suite      scripts/measure-suite.sh: the full test suite on this machine (suite.md)
# After each step that succeeded, one line goes to results-bench/performance-runs.csv:
#   date,revision,step,load_before,load_after,command
# (the 1-minute, 5-minute and 15-minute load averages before and after the step, and the exact
# command). Last, `sudoku-lab report` writes docs/performance.md from the records.
#
# Usage: scripts/performance.sh [--before REV] [--kernels "K ..."] [--experiments "ID ..."]
#                               [--runs N] [--max-seconds S] [--skip STEP]... [--no-report]
#   --before REV          also measure the kernels at REV and make REV their BEFORE
#   --kernels "K ..."     kernels to measure (default: lewis-sa ret-ga mk-ga reseda)
#   --experiments "ID ..." experiments for the thread speed-ups instead of the default plan,
#                         into results-bench/threads-speedup-<ids>[-runs<N>].md
#   --runs N              with --experiments: a reduced protocol (N runs of every puzzle)
#   --max-seconds S       the default plan's limit for full protocols (default 300)
#   --skip STEP           callgrind, threads or suite (repeatable)
#   --no-report           do not run `sudoku-lab report` at the end
# A small check of the whole chain (minutes, not hours):
#   scripts/performance.sh --kernels lewis-sa --experiments reseda-fig4 --runs 1 --skip suite
set -euo pipefail
cd "$(dirname "$0")/.."
before="" kernels="lewis-sa ret-ga mk-ga reseda" experiments="" runs="" max=300 report=1
skip=" "
while [ $# -gt 0 ]; do
  case $1 in
    --before) before=${2:?--before needs a revision}; shift 2 ;;
    --kernels) kernels=${2:?--kernels needs a list}; shift 2 ;;
    --experiments) experiments=${2:?--experiments needs a list}; shift 2 ;;
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    --max-seconds) max=${2:?--max-seconds needs a number}; shift 2 ;;
    --skip)
      case ${2:-} in
        callgrind | threads | suite) skip="$skip$2 "; shift 2 ;;
        *) echo "performance.sh: --skip takes callgrind, threads or suite, not '${2:-}'" >&2; exit 2 ;;
      esac ;;
    --no-report) report=0; shift ;;
    *) echo "performance.sh: unknown argument '$1' (see the header of scripts/performance.sh)" >&2; exit 2 ;;
  esac
done
for k in $kernels; do
  case $k in
    lewis-sa | ret-ga | mk-ga | reseda) ;;
    *) echo "performance.sh: --kernels: unknown kernel '$k' (lewis-sa, ret-ga, mk-ga, reseda)" >&2; exit 2 ;;
  esac
done
if [ -n "$runs" ] && ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
  echo "performance.sh: --runs: '$runs' is not a positive whole number" >&2; exit 2
fi
if [ -n "$runs" ] && [ -z "$experiments" ]; then
  echo "performance.sh: --runs needs --experiments (the default plan has its own)" >&2; exit 2
fi
if ! [[ $max =~ ^[0-9]+$ ]]; then
  echo "performance.sh: --max-seconds: '$max' is not a whole number" >&2; exit 2
fi
for id in $experiments; do
  if ! [[ $id =~ ^[a-z0-9-]+$ ]] || [ ! -f "experiments/$id.toml" ]; then
    echo "performance.sh: --experiments: no experiment '$id' (experiments/<id>.toml)" >&2; exit 2
  fi
done
if [ -n "$before" ]; then
  before=$(git rev-parse --short "$before^{commit}" 2>/dev/null) ||
    { echo "performance.sh: --before: not a revision of this repository" >&2; exit 2; }
fi
bench=results-bench
runs_csv=$bench/performance-runs.csv

revision() {
  local r
  r=$(git rev-parse --short HEAD)
  if ! git diff --quiet HEAD -- crates scripts experiments; then r="$r+dirty"; fi
  echo "$r"
}

# step <name> <revision> <command...>: runs the command, then records it (only when it passed).
step() {
  local name=$1 rev=$2
  shift 2
  local shown load_before
  shown=$(printf '%q ' "$@")
  shown=${shown% }
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "performance.sh: $name: $shown" >&2
  env "$@"
  [ -f "$runs_csv" ] || echo "date,revision,step,load_before,load_after,command" >"$runs_csv"
  echo "$(date -u +%Y-%m-%d),$rev,$name,$load_before,$(cut -d' ' -f1-3 /proc/loadavg),$shown" >>"$runs_csv"
}

# callgrind-before.csv with REV for the kernels measured, the other kernels' lines kept;
# written to a temporary file, then renamed over the old one.
name_before() {
  local file=$bench/callgrind-before.csv
  {
    echo "kernel,revision"
    if [ -f "$file" ]; then
      tail -n +2 "$file" | while IFS=, read -r k r; do
        case " $kernels " in *" $k "*) ;; *) echo "$k,$r" ;; esac
      done
    fi
    for k in $kernels; do echo "$k,$before"; done
  } >"$file.tmp"
  mv "$file.tmp" "$file"
}

if [[ $skip != *" callgrind "* ]]; then
  if [ -n "$before" ]; then
    step callgrind-before "$before" PROFILE=1 KERNELS="$kernels" scripts/callgrind-kernels.sh "$before"
    name_before
  fi
  step callgrind-after "$(revision)" PROFILE=1 KERNELS="$kernels" scripts/callgrind-kernels.sh
fi

if [[ $skip != *" threads "* ]]; then
  if [ -n "$experiments" ]; then
    label=$(echo $experiments | tr ' ' '+')${runs:+-runs$runs}
    step threads "$(revision)" scripts/threads-speedup.sh ${runs:+--runs $runs} \
      --out "$bench/threads-speedup-$label.md" $experiments
  else
    step threads "$(revision)" scripts/threads-speedup.sh --max-seconds "$max" \
      --out "$bench/threads-speedup.md"
    # The experiments that take hours, each with the reduced protocol of its committed record.
    for plan in benchmark-9x9:2 reseda-coupling:20 reseda-table5:200 ret-ga-ablation:3 \
      ret-ga-table1:2 ret-ga-tables234:1; do
      id=${plan%%:*} n=${plan##*:}
      step threads "$(revision)" scripts/threads-speedup.sh --runs "$n" \
        --out "$bench/threads-speedup-$id-runs$n.md" "$id"
    done
  fi
fi

if [[ $skip != *" suite "* ]]; then
  step suite "$(revision)" scripts/measure-suite.sh
fi

if [ $report = 1 ]; then
  cargo run --release --quiet -p sudoku-lab -- report --results results
fi
