#!/usr/bin/env bash
# Run a sudoku-lab reproduction as a Slurm array job: N shard tasks, then a merge job that
# depends on all of them (afterok). Run from the repository on the login node; the folders
# must be on a file system the compute nodes share.
#   scripts/slurm/submit.sh ID N OUT [--cpus C] [--seed S] [--time T] [--partition P] [--wait]
#     ID    an embedded experiment (sudoku-lab list)
#     N     number of shards (array tasks 1..N)
#     OUT   the merged results folder (must not exist); shards and logs go to OUT.shards/
#     --cpus C       CPUs (threads) per shard task (default 1)
#     --quick        the reduced run (`reproduce --quick`), for trying the setup
#     --wait         block until the merge job ends; exit non-zero if it failed
# Prints the two job ids. Binary: $LAB_BIN if set, else target/release/sudoku-lab (built here).
set -euo pipefail
usage() { sed -n '2,14p' "$0" >&2; exit 2; }
[ $# -ge 3 ] || usage
id=$1 n=$2 out=$3
shift 3
cpus=1 seed="" wait=0 quick="" extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --cpus) cpus=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --time) extra+=(--time "$2"); shift 2 ;;
    --partition) extra+=(--partition "$2"); shift 2 ;;
    --wait) wait=1; shift ;;
    --quick) quick=1; shift ;;
    *) echo "submit.sh: unknown option $1" >&2; usage ;;
  esac
done
case $n in ''|*[!0-9]*|0) echo "submit.sh: N must be a positive integer, got '$n'" >&2; exit 2 ;; esac
command -v sbatch >/dev/null || { echo "submit.sh: sbatch not found (is Slurm installed?)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if [ -z "${LAB_BIN:-}" ]; then
  (cd "$repo" && cargo build --release --quiet -p sudoku-lab)
  LAB_BIN="$repo/target/release/sudoku-lab"
fi
LAB_BIN=$(cd "$(dirname "$LAB_BIN")" && pwd)/$(basename "$LAB_BIN")
# Fail here, not on a compute node: the experiment must exist and OUT must be new.
"$LAB_BIN" list | awk '{print $1}' | grep -qx -- "$id" || { echo "submit.sh: no embedded experiment '$id' (sudoku-lab list)" >&2; exit 2; }
if [ -e "$out" ]; then echo "submit.sh: $out exists; choose a new folder" >&2; exit 2; fi
mkdir -p "$out.shards/logs"
work=$(cd "$out.shards" && pwd)
out_abs=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
export LAB_BIN LAB_ID="$id" LAB_SHARDS="$n" LAB_WORK="$work" LAB_OUT="$out_abs" LAB_SEED="$seed" LAB_QUICK="$quick"
array=$(sbatch --parsable --array="1-$n" --cpus-per-task="$cpus" "${extra[@]}" \
  --output="$work/logs/shard-%A_%a.out" --export=ALL "$here/shard.sbatch")
array=${array%%;*}
waitflag=()
if [ $wait = 1 ]; then waitflag=(--wait); fi
echo "submitted array job $array (shards 1-$n of $id)"
merge_out=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes "${extra[@]}" \
  --output="$work/logs/merge-%j.out" --export=ALL "${waitflag[@]}" "$here/merge.sbatch") || {
  echo "submit.sh: the merge job failed; see $work/logs/" >&2
  exit 1
}
echo "submitted merge job ${merge_out%%;*} (after $array); output $out_abs, logs $work/logs"
