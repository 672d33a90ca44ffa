#!/usr/bin/env bash
# The 1- vs 2-thread speed-up of embedded experiments (target >= 1.8 on 2 cores for
# any experiment over 10 s). Each experiment runs its full protocol twice (1 thread, then 2),
# into temporary folders (the committed results are not touched); the two runs.csv are checked
# identical in every column but wall_ms. Wall and CPU (user+sys) seconds are measured by
# /usr/bin/time. Run it on an idle machine.
#   scripts/threads-speedup.sh [--max-seconds S] [--runs N] [--control] [--out FILE] [ID...]
#     ID...            experiments (default: every embedded one)
#     --max-seconds S  skip experiments whose committed results/<id> took more than S seconds of
#                      wall time (2 threads); they are listed as not measured
#     --out FILE       also write the Markdown table to FILE
#     --runs N         pass --runs N to every reproduce (N runs per algorithm and puzzle instead
#                      of the spec's count): a reduced protocol for the experiments that take
#                      hours. Fewer runs leave fewer tasks to balance, so the speed-up measured
#                      this way is expected to be at most that of the full protocol; the table
#                      says so in its first line
#     --abba           time each thread count twice, in the order 1, 2, 2, 1 threads, and use
#                      the means: this VM's speed drifts by 10-20 % within minutes, and the
#                      symmetric order cancels a drift that is linear in time
#     --control        also run two 1-thread processes of the same experiment side by side: the
#                      speed-up the machine itself allows for this workload is
#                      2 x (1 thread wall) / (side-by-side wall); when it is below 2, two busy
#                      cores slow each other down (shared cache, memory, frequency) whatever
#                      the scheduler does
set -euo pipefail
cd "$(dirname "$0")/.."
argv="$*"
max="" out="" control=0 runs="" abba=0 ids=()
while [ $# -gt 0 ]; do
  case $1 in
    --max-seconds) max=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --control) control=1; shift ;;
    --abba) abba=1; shift ;;
    --runs) runs=$2; shift 2 ;;
    -*) echo "threads-speedup: unknown option $1" >&2; exit 2 ;;
    *) ids+=("$1"); shift ;;
  esac
done
cargo build --release --quiet -p sudoku-lab
extra=()
if [ -n "$runs" ]; then extra=(--runs "$runs"); fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
bin=target/release/sudoku-lab
if [ ${#ids[@]} -eq 0 ]; then
  mapfile -t ids < <(ls experiments/*.toml | xargs -n1 basename | sed 's/\.toml$//')
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
table="$tmp/table.md"
{
  if [ $control = 1 ]; then
    echo "| experiment | committed wall (2 threads): s | 1 thread: wall s (CPU s) | 2 threads: wall s (CPU s) | speed-up | two 1-thread processes side by side: wall s | speed-up the machine allows | runs.csv identical but wall_ms | CPU s of other processes meanwhile |"
    echo "|---|---|---|---|---|---|---|---|---|"
  else
    echo "| experiment | committed wall (2 threads): s | 1 thread: wall s (CPU s) | 2 threads: wall s (CPU s) | speed-up | runs.csv identical but wall_ms | CPU s of other processes meanwhile |"
    echo "|---|---|---|---|---|---|---|"
  fi
} >"$table"
cat "$table"
# Busy CPU ticks of the whole machine so far (user, nice, system, irq, softirq; /proc/stat).
busy() {
  awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat
}
committed() {
  python3 -c "import json,sys; print('%.1f' % json.load(open(sys.argv[1]))['wall_seconds'])" \
    "results/$1/meta.json" 2>/dev/null || echo "-"
}
for id in "${ids[@]}"; do
  was=$(committed "$id")
  if [ -n "$max" ] && [ "$was" != "-" ] && [ "$(echo "$was > $max" | bc -l)" = 1 ]; then
    echo "| $id | $was | not measured (over --max-seconds $max) | | | |" | tee -a "$table"
    continue
  fi
  declare -A wall=() cpu=()
  busy_before=$(busy)
  order=(1 2)
  if [ $abba = 1 ]; then order=(1 2 2 1); fi
  wall[1]=0 wall[2]=0 cpu[1]=0 cpu[2]=0
  for t in "${order[@]}"; do
    rm -rf "$tmp/$id-$t"
    /usr/bin/time -f '%e %U %S' -o "$tmp/time" \
      "$bin" reproduce "$id" --threads "$t" --out "$tmp/$id-$t" "${extra[@]}" >/dev/null 2>&1
    read -r e u s <"$tmp/time"
    wall[$t]=$(echo "${wall[$t]} + $e / (${#order[@]} / 2)" | bc -l)
    cpu[$t]=$(echo "${cpu[$t]} + ($u + $s) / (${#order[@]} / 2)" | bc -l)
  done
  # CPU seconds spent by every other process while the two timed runs ran: a check that the
  # machine was idle (it also counts this script's own few milliseconds)
  others=$(echo "($(busy) - $busy_before) / $(getconf CLK_TCK) - (${cpu[1]} + ${cpu[2]}) * ${#order[@]} / 2" | bc -l)
  same=$(python3 - "$tmp/$id-1/runs.csv" "$tmp/$id-2/runs.csv" <<'PY'
import csv, sys
a, b = (list(csv.reader(open(p, newline=""))) for p in sys.argv[1:])
w = a[0].index("wall_ms")
strip = lambda rows: [r[:w] + r[w + 1:] for r in rows]
print("yes" if a[0] == b[0] and strip(a) == strip(b) else "NO")
PY
)
  if [ $control = 1 ]; then
    start=$(date +%s.%N)
    "$bin" reproduce "$id" --threads 1 --out "$tmp/$id-a" "${extra[@]}" >/dev/null 2>&1 &
    "$bin" reproduce "$id" --threads 1 --out "$tmp/$id-b" "${extra[@]}" >/dev/null 2>&1
    wait
    pair=$(echo "$(date +%s.%N) - $start" | bc -l)
    printf '| %s | %s | %.1f (%.1f) | %.1f (%.1f) | %.2fx | %.1f | %.2fx | %s | %.1f |\n' "$id" "$was" \
      "${wall[1]}" "${cpu[1]}" "${wall[2]}" "${cpu[2]}" \
      "$(echo "${wall[1]} / ${wall[2]}" | bc -l)" "$pair" \
      "$(echo "2 * ${wall[1]} / $pair" | bc -l)" "$same" "$others" | tee -a "$table"
    rm -rf "$tmp/$id-a" "$tmp/$id-b"
  else
    printf '| %s | %s | %.1f (%.1f) | %.1f (%.1f) | %.2fx | %s | %.1f |\n' "$id" "$was" \
      "${wall[1]}" "${cpu[1]}" "${wall[2]}" "${cpu[2]}" \
      "$(echo "${wall[1]} / ${wall[2]}" | bc -l)" "$same" "$others" | tee -a "$table"
  fi
  rm -rf "$tmp/$id-1" "$tmp/$id-2"
done
if [ -n "$out" ]; then
  {
    echo "Measured by \`scripts/threads-speedup.sh $argv\` at $(git rev-parse --short HEAD) on $(nproc) cores ($(date -u +%Y-%m-%d)); load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)."
    if [ $abba = 1 ]; then
      echo
      echo "Each time is the mean of two runs, timed in the order 1, 2, 2, 1 threads (--abba)."
    fi
    if [ -n "$runs" ]; then
      echo
      echo "REDUCED PROTOCOL: --runs $runs (runs per algorithm and puzzle; the spec's count is overridden), so wall times are not those of the full protocol; fewer tasks are harder to balance, so the speed-up is expected to be at most that of the full protocol (not proven: the mix of run costs changes too)."
    fi
    echo
    cat "$table"
  } >"$out"
fi
