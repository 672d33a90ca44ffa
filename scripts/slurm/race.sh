#!/usr/bin/env bash
# Run a sudoku-lab reading race (`sudoku-lab readings`) on Slurm, one round of array tasks at
# a time; started by `submit.sh --race`. Run it on the login node. See docs/cluster.md.
#   scripts/slurm/submit.sh --race N OUT [options] -- readings ARGS...
#                      the race of ARGS into OUT, N array tasks a round (again: recovers it)
#   scripts/slurm/submit.sh --race --status OUT    the current round's shards and decision;
#                      exit 0 once the race has ended
#   scripts/slurm/submit.sh --race --recover OUT [options]  run the current round's shards
#                      that did not finish, then its decision (which goes on with the race)
#     N     number of shards (array tasks 1..N of every round)
#     OUT   the race's folder (as `readings --out`); the submission's binary, rounds and logs
#           go to OUT.shards/, which every compute node must see (shared storage)
#     ARGS  the arguments of `sudoku-lab readings` but --out, --threads, --resume, --fresh,
#           --shard, --merge-shards and --shard-dir (no --synthetic)
# Options (as for protocols):
#     --cpus C        CPUs per task; shards and decisions run C threads (default 1)
#     --wait          block until the race has ended or a job failed; exit 1 unless it ended
#     --time T, --partition P, --account A, --qos Q, --mem M   the sbatch options of that name
#     --throttle K    at most K shard tasks of a round run at once
#     --sbatch OPT    any other sbatch option, repeatable
#     --no-sbatch     --recover only: replay none of the recorded --sbatch options
#     --rerun K,...   --recover only: make these shards of the current round again (their files
#                     are kept aside as shard-K.csv.refused-TIME), e.g. those a decision refused
# Each round is an array job (task K: `readings ARGS --out OUT --shard K/N --shard-dir
# OUT.shards/round-R`) and a decision job after it (afterok: `readings ARGS --out OUT
# --merge-shards N --shard-dir OUT.shards/round-R`), which takes the shards' runs into OUT and
# either ends the race (its outputs written) or submits the next round itself (with this
# script's copy in OUT.shards/bin/, so compute nodes must be allowed to call sbatch).
# Binary: $LAB_BIN if set, else the release build of this repository.
set -euo pipefail
main() {
usage() { if [ "${1:-2}" = 0 ]; then sed -n '4,27p' "$0"; else sed -n '4,27p' "$0" >&2; fi; exit "${1:-2}"; }
die() { echo "submit.sh --race: $*" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
poll=${LAB_POLL_SECONDS:-10}

mode=submit next=""
case ${1:-} in
  --recover|--status) mode=${1#--}; [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
  # Internal: a decision job submits round R of OUT.
  --next-round) mode=next; [ $# -ge 3 ] || usage; out=$2 next=$3; shift 3 ;;
  -h|--help) usage 0 ;;
  ''|-*) usage ;;
  *) [ $# -ge 2 ] || usage; n=$1 out=$2; shift 2 ;;
esac
cpus="" wait=0 throttle="" sb=() sbx=() nosbx=0 rerun="" args=()
named_sbatch="--time --partition --account --qos --mem"
need() {
  [ "$2" -ge 2 ] || die "$1 needs a value"
  case $3 in *$'\n'*|*$'\r'*) die "$1: a value on one line, please" ;; esac
}
while [ $# -gt 0 ]; do
  case $1 in
    --cpus) need "$1" $# "${2:-}"; cpus=$2; shift 2 ;;
    --wait) wait=1; shift ;;
    --time|--partition|--account|--qos|--mem) need "$1" $# "${2:-}"; sb+=("$1=$2"); shift 2 ;;
    --throttle) need "$1" $# "${2:-}"; throttle=$2; shift 2 ;;
    --sbatch) need "$1" $# "${2:-}"; case $2 in -*) sbx+=("$2") ;; *) die "--sbatch takes an sbatch option (starting with -), got '$2'" ;; esac; shift 2 ;;
    --no-sbatch) nosbx=1; shift ;;
    --rerun) need "$1" $# "${2:-}"; case $2 in *[!0-9,]*|''|,*|*,|*,,*) die "--rerun takes shard numbers separated by commas, got '$2'" ;; esac; rerun=$2; shift 2 ;;
    --) shift; args=("$@"); break ;;
    -h|--help) usage 0 ;;
    *) die "unknown option $1" ;;
  esac
done
positive() { case $2 in ''|*[!0-9]*|0*) die "$1 must be a positive integer, got '$2'" ;; esac; }
[ -z "$cpus" ] || positive --cpus "$cpus"
[ -z "$throttle" ] || positive --throttle "$throttle"
if [ $mode = status ] && { [ ${#sb[@]} -gt 0 ] || [ ${#sbx[@]} -gt 0 ] || [ -n "$cpus$throttle$rerun" ] || [ $wait = 1 ] || [ $nosbx = 1 ]; }; then
  die "--status takes no options"
fi
if [ $mode = submit ] && { [ -n "$rerun" ] || [ $nosbx = 1 ]; }; then
  die "--rerun and --no-sbatch belong to --recover"
fi
if [ $mode != submit ] && [ ${#args[@]} -gt 0 ]; then
  die "the race's arguments belong to the first submission; --$mode takes them from $out.shards/args"
fi
out=${out%/}
[ -n "$out" ] || die "OUT must not be empty"
work=$out.shards

# --- the records (read as data, never sourced) ------------------------------------------------
# OUT.shards/race: shards=, cpus=, throttle=. Fills rec_n, rec_cpus, rec_throttle.
read_record() {
  rec_n="" rec_cpus=1 rec_throttle=""
  local f=$work/race line k v no=0 bad
  [ -f "$f" ] && [ ! -L "$f" ] || return 1
  while IFS= read -r line || [ -n "$line" ]; do
    no=$((no + 1)) k=${line%%=*} v=${line#*=} bad=0
    case $k in
      shards) case $v in ''|*[!0-9]*|0*) bad=1 ;; *) rec_n=$v ;; esac ;;
      cpus) case $v in ''|*[!0-9]*|0*) bad=1 ;; *) rec_cpus=$v ;; esac ;;
      throttle) case $v in *[!0-9]*|0*) bad=1 ;; *) rec_throttle=$v ;; esac ;;
      *) bad=1 ;;
    esac
    [ $bad = 0 ] || die "$f line $no: unexpected '$(printf '%s' "$line" | head -c 60 | tr -c '[:print:]' '?')'"
  done <"$f"
  [ -n "$rec_n" ] || die "$f: no shards= line"
}
# OUT.shards/args: the race's arguments, one a line, given to the binary as they are (it
# checks them); a line that starts with one of the flags submit.sh sets is refused.
read_args() {
  local f=$work/args line no=0
  args=()
  [ -f "$f" ] && [ ! -L "$f" ] || die "$f not found: $out was not submitted as a race"
  while IFS= read -r line || [ -n "$line" ]; do
    no=$((no + 1))
    reserved "$line" && die "$f line $no: '${line%%=*}' is set by submit.sh, not by the race's arguments"
    args+=("$line")
  done <"$f"
  [ "${args[0]:-}" = readings ] || die "$f line 1: the arguments must start with 'readings'"
}
reserved() {
  case $1 in
    --out|--out=*|--threads|--threads=*|--resume|--fresh|--shard|--shard=*|--merge-shards|--merge-shards=*|--shard-dir|--shard-dir=*|--synthetic|--synthetic=*) return 0 ;;
  esac
  return 1
}
# The rounds submitted: lines "array R JOB SHARDS" and "decision R JOB" of OUT.shards/jobs,
# which is missing until a first job was submitted (a first sbatch may be refused).
jobs_lines() { cat "$work/jobs" 2>/dev/null || true; }
last_round() { jobs_lines | awk '$1 == "array" || $1 == "decision" {if ($2 + 0 > r) r = $2 + 0} END {print r + 0}'; }
job_of() { jobs_lines | awk -v w="$1" -v r="$2" '$1 == w && $2 == r {j = $3} END {print j}' | tr -cd 0-9; }
# The array job of round R that last ran shard K.
array_of() {
  awk -v r="$1" -v k="$2" 'function has(list, k,  n, i, p, q) {
      n = split(list, p, ",")
      for (i = 1; i <= n; i++)
        if (split(p[i], q, "-") == 2 ? k >= q[1] + 0 && k <= q[2] + 0 : p[i] + 0 == k) return 1
      return 0
    }
    $1 == "array" && $2 == r && has($4, k) {a = $3} END {print a}' <(jobs_lines) | tr -cd 0-9
}
job_ids() { jobs_lines | awk '$1 == "array" || $1 == "decision" {print $3}' | tr -cd '0-9\n' | paste -sd, -; }
live_jobs() {
  local ids
  ids=$(job_ids)
  [ -z "$ids" ] || squeue -h -j "$ids" -o %i 2>/dev/null | paste -sd' ' - || true
}
. "$here/states.sh"
said() {
  local st
  st=$(state_of "$1" "$2")
  if [ -n "$st" ]; then echo "is$st"; return; fi
  st=$(state_of "$1" "$3")
  if [ -n "$st" ]; then echo "was$st when submit.sh last asked Slurm (it has forgotten it since)"; return; fi
  echo "has no record left in Slurm $4"
}
ended() { [ -f "$work/ended" ] && [ -f "$out/report.md" ]; }
# A shard of round R: complete (its .done), incomplete (the runs in its file) or not started.
shard_state() {
  local d=$work/round-$1 runs
  if [ -f "$d/shard-$2.done" ]; then echo complete; return; fi
  if [ ! -f "$d/shard-$2.csv" ]; then echo "not started"; return; fi
  runs=$(( $(wc -l <"$d/shard-$2.csv") - 1 ))
  echo "incomplete ($((runs < 0 ? 0 : runs)) runs made)"
}
# One line per shard of the last round and one for its decision; returns 0 once the race ended.
report() {
  local states recorded r k a line log d
  states=$(slurm_states)
  remember_states "$states"
  recorded=$(read_states) || exit 2
  r=$(last_round)
  if [ "$r" = 0 ]; then
    if ended; then echo "  race: ended; $out/report.md"; return 0; fi
    echo "  no round submitted yet (its first sbatch was refused, or it is being submitted): submit.sh --race --recover $out submits round 1"
    echo "  race: not ended"
    return 1
  fi
  echo "  round $r of the race (each round: $rec_n shards, then a decision)"
  for k in $(seq 1 "$rec_n"); do
    line="  shard $k: $(shard_state "$r" "$k")"
    a=$(array_of "$r" "$k")
    if [ -n "$a" ]; then
      log=$work/logs/shard-${a}_$k.out
      line="$line; task ${a}_$k $(said "${a}_$k" "$states" "$recorded" "(cancelled while pending, or forgotten)")"
      [ ! -f "$log" ] || line="$line; log $log"
    fi
    echo "$line"
  done
  d=$(job_of decision "$r")
  if [ -n "$d" ]; then
    log=$work/logs/round-$d.out
    echo "  decision: job $d $(said "$d" "$states" "$recorded" "(forgotten)")$( [ ! -f "$log" ] || echo "; log $log")"
  fi
  if ended; then echo "  race: ended; $out/report.md"; return 0; fi
  echo "  race: not ended"
  return 1
}
# The shards the last decision's error names (comma-separated, empty when none).
blamed() {
  local d
  d=$(job_of decision "$(last_round)")
  [ -n "$d" ] && [ -f "$work/logs/round-$d.out" ] || return 0
  tail -n 4 "$work/logs/round-$d.out" | grep -oE 'round-[0-9]+/shard-[0-9]+' | sed 's/.*-//' | sort -nu | paste -sd, - || true
}
# sbatch ARGS..., printing the job's id. A refusal (a wrong account or partition, a time limit
# above the partition's) ends this script with sbatch's exit code after Slurm's own error,
# saying what it refused and the command that goes on (the jobs submitted before are recorded).
sbatch_or_stop() {
  local what=$1 id rc=0
  shift
  id=$(sbatch "$@") || rc=$?
  if [ $rc != 0 ]; then
    {
      echo "submit.sh --race: sbatch refused the $what (Slurm's error above): nothing of it was submitted"
      echo "correct the option, then recover (options given to --recover replace the recorded ones of the same name):"
      echo "  $here/submit.sh --race --recover $out [options]"
    } >&2
    exit $rc
  fi
  echo "${id%%;*}"
}
# Submits round R: an array job of the shards LIST (empty: none, every shard is complete),
# then its decision job after it.
submit_round() {
  local r=$1 list=$2 common dep=() array="" decision
  export LAB_BIN=$work/bin/sudoku-lab LAB_WORK=$work LAB_OUT=$out LAB_SHARDS=$rec_n LAB_ROUND=$r
  common=(--parsable --export=ALL --open-mode=append --cpus-per-task="$rec_cpus")
  while IFS= read -r line; do [ -z "$line" ] || common+=("$line"); done <"$work/sbatch-options"
  mkdir -p "$work/round-$r"
  if [ -n "$list" ]; then
    array=$(sbatch_or_stop "array job of round $r" "${common[@]}" \
      --array="$list${rec_throttle:+%$rec_throttle}" \
      --output="$work/logs/shard-%A_%a.out" "$work/bin/race-shard.sbatch")
    echo "array $r $array $list" >>"$work/jobs"
    echo "submitted array job $array (round $r, shards $list of $rec_n)"
    dep=(--dependency="afterok:$array" --kill-on-invalid-dep=yes)
  fi
  decision=$(sbatch_or_stop "decision job of round $r" "${common[@]}" ${dep[@]+"${dep[@]}"} \
    --output="$work/logs/round-%j.out" "$work/bin/race-round.sbatch")
  echo "decision $r $decision" >>"$work/jobs"
  echo "submitted decision job $decision (round $r${array:+, after $array}); race $out, logs $work/logs"
}
# The race's own first step, here: the arguments checked, the folder made, and whether it
# needs a round (exit 3 of --merge-shards) or has ended.
plan() {
  local rc=0
  "$work/bin/sudoku-lab" readings "${args[@]:1}" --out "$out" --merge-shards "$rec_n" \
    --shard-dir "$work/round-1" --threads 1 || rc=$?
  case $rc in
    0) : >"$work/ended"; echo "the race in $out has ended: nothing to submit"; exit 0 ;;
    3) ;;
    *) exit 2 ;;
  esac
}
named() { case " $named_sbatch " in *" ${1%%=*} "*) return 0 ;; *) return 1 ;; esac; }
given() {
  local o
  for o in ${sb[@]+"${sb[@]}"}; do [ "${o%%=*}" != "${1%%=*}" ] || return 0; done
  return 1
}
# The sbatch options of a recovery: the recorded ones, but those given now.
merge_options() {
  local old=() oldx=() line no=0
  if [ -f "$work/sbatch-options" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      no=$((no + 1))
      case $line in
        '') ;;
        -*) if named "$line"; then given "$line" || old+=("$line"); else oldx+=("$line"); fi ;;
        *) die "$work/sbatch-options line $no: not an sbatch option" ;;
      esac
    done <"$work/sbatch-options"
  fi
  [ ${#sbx[@]} -gt 0 ] || [ $nosbx = 1 ] || sbx=(${oldx[@]+"${oldx[@]}"})
  sb=(${old[@]+"${old[@]}"} ${sb[@]+"${sb[@]}"})
}
write_options() {
  local all=(${sb[@]+"${sb[@]}"} ${sbx[@]+"${sbx[@]}"})
  { [ ${#all[@]} -eq 0 ] || printf '%s\n' "${all[@]}"; } >"$work/sbatch-options.tmp-$$"
  mv "$work/sbatch-options.tmp-$$" "$work/sbatch-options"
}

# The recovery of the race in OUT.shards: the current round's shards that are not complete,
# then its decision (round 1 from the start when no job was ever submitted: a first sbatch
# that was refused).
recover() {
  read_record || die "$work/race not found: nothing to recover (submit with: submit.sh --race N $out -- readings ...)"
  read_args
  work=$(cd "$work" && pwd)
  out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
  read_states >/dev/null
  rec_cpus=${cpus:-$rec_cpus} rec_throttle=${throttle:-$rec_throttle}
  if ended; then echo "the race in $out has ended: nothing to recover"; exit 0; fi
  live=$(live_jobs)
  [ -z "$live" ] || die "jobs $live of this race are still queued or running; wait for them (submit.sh --race --status $out) or scancel them, then recover"
  merge_options
  write_options
  printf 'shards=%s\ncpus=%s\nthrottle=%s\n' "$rec_n" "$rec_cpus" "$rec_throttle" >"$work/race.tmp-$$"
  mv "$work/race.tmp-$$" "$work/race"
  r=$(last_round)
  if [ "$r" = 0 ]; then plan; submit_round 1 "1-$rec_n"; exit_after=1; else exit_after=0; fi
  if [ $exit_after = 0 ]; then
    stamp=$(date -u +%Y%m%dT%H%M%SZ)
    for k in ${rerun//,/ }; do
      case $k in 0*) die "--rerun: no shard '$k' (shards are 1 to $rec_n)" ;; esac
      [ "$k" -le "$rec_n" ] || die "--rerun: no shard $k (shards are 1 to $rec_n)"
      rm -f "$work/round-$r/shard-$k.done"
      if [ -e "$work/round-$r/shard-$k.csv" ]; then
        mv "$work/round-$r/shard-$k.csv" "$work/round-$r/shard-$k.csv.refused-$stamp"
        echo "shard $k of round $r: its file moved to $work/round-$r/shard-$k.csv.refused-$stamp; it runs again"
      fi
    done
    todo=()
    for k in $(seq 1 "$rec_n"); do [ "$(shard_state "$r" "$k")" = complete ] || todo+=("$k"); done
    list=$(IFS=,; echo ${todo[@]+"${todo[*]}"})
    echo "recovering $out: round $r, ${#todo[@]} of $rec_n shards to run (${list:-none}), then its decision"
    submit_round "$r" "$list"
  fi
}
# The first submission: the binary copied into OUT.shards, the race's records written, its
# first step run here (`plan`), then round 1.
first() {
  [ ! -e "$out" ] || die "$out exists; choose a new folder"
  if [ -z "${LAB_BIN:-}" ]; then
    (cd "$repo" && cargo build --release --quiet -p sudoku-lab)
    target=${CARGO_TARGET_DIR:-target}
    case $target in /*) ;; *) target=$repo/$target ;; esac
    LAB_BIN=$target/release/sudoku-lab
  fi
  [ -x "$LAB_BIN" ] || die "no executable binary at $LAB_BIN"
  mkdir -p "$work/logs" "$work/bin"
  work=$(cd "$work" && pwd)
  out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
  cp "$LAB_BIN" "$work/bin/.sudoku-lab.tmp-$$"
  chmod 0755 "$work/bin/.sudoku-lab.tmp-$$"
  mv "$work/bin/.sudoku-lab.tmp-$$" "$work/bin/sudoku-lab"
  cp "$here/race.sh" "$here/states.sh" "$here/race-shard.sbatch" "$here/race-round.sbatch" "$work/bin/"
  printf '%s\n' "${args[@]}" >"$work/args"
  printf 'shards=%s\ncpus=%s\nthrottle=%s\n' "$n" "${cpus:-1}" "$throttle" >"$work/race"
  read_record
  write_options
  # A race the binary refuses leaves nothing behind: both folders are this command's own.
  if ! (plan); then rm -rf "$work" "$out"; exit 2; fi
  [ ! -f "$work/ended" ] || exit 0
  submit_round 1 "1-$rec_n"
}
# The first command again: OUT.shards must hold the same race (shards and arguments), which
# is then recovered; anything else is refused, naming what differs.
same_race() {
  local given=("${args[@]}")
  read_record || die "$work exists but holds no race record; remove it or choose another OUT"
  read_args
  [ "$rec_n" = "$n" ] || die "$work holds a race of $rec_n shards, not $n; recover it with 'submit.sh --race --recover $out', or remove it first (rm -r $work $out; its runs are lost) to submit this one"
  [ "$(printf '%s\n' "${args[@]}")" = "$(printf '%s\n' "${given[@]}")" ] || die "$work holds a race of other arguments ($(paste -sd' ' "$work/args" | cut -c1-200)); recover it with 'submit.sh --race --recover $out', or remove it first (rm -r $work $out) to submit this one"
}
command -v sbatch >/dev/null || die "sbatch not found (is Slurm installed?)"
case $mode in
  status)
    read_record || die "$work/race not found: $out was not submitted as a race"
    echo "race of $rec_n shards per round in $work; jobs still queued or running: $(live_jobs | sed 's/^$/none/')"
    report && exit 0 || exit 1 ;;
  next)
    read_record || die "$work/race not found"
    read_args
    case $next in ''|*[!0-9]*|0*) die "--next-round: not a round '$next'" ;; esac
    submit_round "$next" "1-$rec_n"
    exit 0 ;;
  submit)
    positive N "$n"
    [ "$n" -le 100000 ] || die "N must be at most 100000"
    [ ${#args[@]} -gt 0 ] || die "the race's arguments come after --: -- readings EXPERIMENT --algorithm LABEL ..."
    [ "${args[0]}" = readings ] || die "the race's arguments start with 'readings', got '${args[0]}'"
    for a in "${args[@]}"; do
      case $a in *$'\n'*|*$'\r'*) die "an argument on one line, please" ;; esac
      ! reserved "$a" || die "${a%%=*} is set by submit.sh, not given with the race's arguments"
    done
    # The first command again recovers the race it made (a refused sbatch, a failed round).
    if [ -e "$work" ]; then
      same_race
      recover
    else
      first
    fi ;;
  recover)
    recover ;;
esac
[ $wait = 1 ] || exit 0

# --- wait until the last round's decision has left the queue and submitted no other --------
fails=0
while :; do
  remember_states "$(slurm_states)"
  d=$(job_of decision "$(last_round)")
  if state=$(squeue -h -j "$d" -o %T 2>/dev/null); then
    fails=0
    if [ -z "$state" ] && [ "$d" = "$(job_of decision "$(last_round)")" ]; then break; fi
  else
    fails=$((fails + 1))
    [ $fails -lt 3 ] || break
  fi
  sleep "$poll"
done
read_record
if text=$(report); then
  printf '%s\n' "$text"
  echo "done: $out"
  exit 0
fi
{
  echo "submit.sh: the race in $out has not ended: a job of round $(last_round) failed or was cancelled"
  printf '%s\n' "$text"
  d=$(job_of decision "$(last_round)")
  if [ -n "$d" ] && [ -s "$work/logs/round-$d.out" ]; then
    echo "  the decision's log ($work/logs/round-$d.out) ends with:"
    tail -n 4 "$work/logs/round-$d.out" | cut -c1-400 | tr -c '[:print:]\n' '?' | sed 's/^/    /'
  fi
  bad=$(blamed)
  echo "recover (runs the round's shards that are not complete, then its decision, which goes on):"
  if [ -n "$bad" ]; then
    echo "  $here/submit.sh --race --recover $out --rerun $bad    (the decision refused these shards' files)"
  elif printf '%s\n' "$text" | grep -q TIMEOUT; then
    echo "  $here/submit.sh --race --recover $out --time LONGER    (a task reached its time limit)"
  else
    echo "  $here/submit.sh --race --recover $out"
  fi
} >&2
exit 1
}
main "$@"
