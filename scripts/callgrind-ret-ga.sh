#!/usr/bin/env bash
# Instructions per Ret-GA generation under callgrind (valgrind), stable across machines and
# load, for the revision checked out or for a given git revision (built in a temporary
# worktree). The workload: one run of the ret_ga_quick example on mk_superdifficult (seed 0),
# which no run solves this early, for G and for 1 generation; the difference over G - 1 is the
# cost of a generation without the set-up (puzzle bank, allocation, initial population). The
# run uses elite_order = best-first (V=bestfirst; the earlier default, which older
# revisions ignore and use anyway), so every revision executes the same run.
#   scripts/callgrind-ret-ga.sh            # this checkout
#   scripts/callgrind-ret-ga.sh 00ab1eb    # another revision
# Needs valgrind (Debian: apt-get install valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-}
gens=${GENS:-2001}
dir=$PWD
if [ -n "$rev" ]; then
  dir=$(mktemp -d)
  trap 'git worktree remove --force "$dir" >/dev/null 2>&1 || true' EXIT
  git worktree add --detach "$dir" "$rev" >/dev/null
fi
target=${CARGO_TARGET_DIR:-$PWD/target}/callgrind-${rev:-head}
(cd "$dir" && CARGO_TARGET_DIR=$target cargo build --release --quiet -p ret-ga --example ret_ga_quick)
bin=$target/release/examples/ret_ga_quick
count() {
  V=bestfirst MAXG=$1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" mk_superdifficult 1 2>&1 \
    | sed -n 's/.*refs: *//p' | tr -d ,
}
one=$(count 1)
many=$(count "$gens")
echo "revision ${rev:-$(git rev-parse --short HEAD)}: $(( (many - one) / (gens - 1) )) instructions per generation ($gens generations: $many, 1 generation: $one)"
