#!/usr/bin/env bash
# Regenerate every committed report from its runs.csv and compare byte for byte (issue 10:
# a refactoring of the runner must leave every output unchanged).
#
#   scripts/regenerate-reports.sh [--bin PATH] [--out DIR] [--keep] [ID...]
#
# For each results/<id>/ (default: every folder of results/ holding a runs.csv), the folder is
# copied to DIR/<id>/, `sudoku-lab reproduce <id> --out DIR/<id> --resume` (`run
# examples/*/<id>.toml ...` for a spec that is not embedded) rewrites every table,
# report and chart from the copied runs.csv (no run is executed: all are already there), and
# the folder is compared with the committed one, file by file. meta.json is left out of the
# comparison: it records when and by which revision the folder was written, which a rerun
# changes by design. Exit 0 when every other file is identical, 1 otherwise (the differing files
# are listed), 2 on a usage error.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/sudoku-lab
out=
keep=0
ids=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "regenerate-reports: unknown flag $1" >&2; exit 2 ;;
    *) ids+=("$1"); shift ;;
  esac
done
if [ ! -x "$bin" ]; then
  cargo build --release --locked -p sudoku-lab >&2
fi
if [ ${#ids[@]} -eq 0 ]; then
  for d in results/*/; do
    [ -f "$d/runs.csv" ] && ids+=("$(basename "$d")")
  done
fi
if [ -z "$out" ]; then
  out=$(mktemp -d)
  [ "$keep" = 1 ] || trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
differ=0
for id in "${ids[@]}"; do
  src=results/$id
  if [ ! -f "$src/runs.csv" ]; then
    echo "regenerate-reports: $src/runs.csv does not exist" >&2
    exit 2
  fi
  rm -rf "${out:?}/$id"
  cp -r "$src" "$out/$id"
  # A folder made with --runs N (a reduced protocol) is regenerated with the same flag.
  runs=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["settings"].get("forced_runs"); print(f"--runs={r}" if r else "")' "$src/meta.json")
  start=$(date +%s.%N)
  # A folder of a spec that is not embedded (examples/*/<id>.toml, e.g. the external solvers'
  # demo, whose commands run in the spec's folder) is rerun from that spec file.
  what=(reproduce "$id")
  for spec in examples/*/"$id".toml; do
    [ -f "$spec" ] && what=(run "$spec")
  done
  # shellcheck disable=SC2086
  if ! "$bin" "${what[@]}" --out "$out/$id" --resume $runs >"$out/$id.log" 2>&1; then
    echo "$id: the rerun failed (see $out/$id.log)"
    differ=1
    continue
  fi
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  changed=$(diff -rq -x meta.json "$src" "$out/$id" || true)
  if [ -z "$changed" ]; then
    printf '%s: identical (%d files, %.1f s)\n' "$id" "$(find "$src" -type f ! -name meta.json | wc -l)" "$secs"
  else
    echo "$id: DIFFERS"
    echo "$changed" | sed 's/^/  /'
    differ=1
  fi
done
exit $differ
