#!/usr/bin/env bash
# Run a sudoku-lab reproduction as a Slurm array job: one task per shard, then a merge job that
# depends on all of them (afterok). Run it on the login node. See docs/cluster.md.
#   scripts/slurm/submit.sh ID N OUT [options]     submit N shard tasks of experiment ID + merge
#   scripts/slurm/submit.sh --recover OUT [options]  resubmit the shards of OUT that are not
#                                    complete, and the merge (rerunning the first form with the
#                                    same ID N OUT does the same); with every shard complete, the
#                                    merge's checks run here first and a refusal is reported
#   scripts/slurm/submit.sh --status OUT           each shard's state; exit 0 once OUT is merged
#   scripts/slurm/submit.sh --race N OUT [options] -- readings ARGS...   a reading race (race.sh)
#     ID    an embedded experiment (sudoku-lab list)
#     N     number of shards (array tasks 1..N)
#     OUT   the merged results folder; the submission's binary, shards and logs go to
#           OUT.shards/, which every compute node must see (shared storage)
# Options:
#     --cpus C        CPUs per task; the shards and the merge run C threads (default 1)
#     --seed S        master seed, overriding the spec (first submission only)
#     --quick         the reduced run (`reproduce --quick`), for trying the setup (first only)
#     --wait          block until the merge job ends; exit 1 unless OUT is complete, naming
#                     the shards that did not finish (or the failed merge's error) and the
#                     command that recovers them
#     --time T        sbatch --time for every job (e.g. 2:00:00)
#     --partition P   sbatch --partition
#     --account A     sbatch --account
#     --qos Q         sbatch --qos
#     --mem M         sbatch --mem (e.g. 4G)
#     --throttle K    at most K shard tasks run at once (the array's %K)
#     --sbatch OPT    any other sbatch option, repeatable (e.g. --sbatch --constraint=avx2);
#                     with --recover, those given replace the recorded --sbatch options
#     --no-sbatch     --recover only: replay none of the recorded --sbatch options
#     --rerun K,...   --recover only: run these shards again from scratch (their folders are
#                     kept aside as shard-K.refused-TIME), e.g. those a merge refused
#     --race          first argument: a reading race, `--race N OUT [options] -- readings
#                     ARGS...` (scripts/slurm/race.sh; --status and --recover of its OUT too)
# The recorded sbatch options (OUT.shards/sbatch-options) are those of the last submission: a
# recovery replays them, but for the named ones it is given again (--time, ...) and, when it is
# given --sbatch or --no-sbatch, the --sbatch ones.
# Binary: $LAB_BIN if set, else the release build of this repository (cargo build, a no-op when
# nothing changed); it is copied once to OUT.shards/bin/ and the tasks run that copy.
set -euo pipefail
# The whole script is one function, read in full before it runs: a `git pull` while a
# `--wait` is pending cannot change the code under it.
main() {
usage() { if [ "${1:-2}" = 0 ]; then sed -n '4,39p' "$0"; else sed -n '4,39p' "$0" >&2; fi; exit "${1:-2}"; }
die() { echo "submit.sh: $*" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
poll=${LAB_POLL_SECONDS:-10}
# A reading race, and --status or --recover of a race's folder, are race.sh's.
case ${1:-} in
  --race) shift; exec bash "$here/race.sh" "$@" ;;
  --status|--recover) [ $# -lt 2 ] || [ ! -f "${2%/}.shards/race" ] || exec bash "$here/race.sh" "$@" ;;
esac

# --- the command line -----------------------------------------------------------------------
mode=submit
case ${1:-} in
  --recover|--status) mode=${1#--}; [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
  -h|--help) usage 0 ;;
  '') usage ;;
  -*) die "unknown option $1 (the first argument is ID, --recover or --status)" ;;
  *) [ $# -ge 3 ] || usage; id=$1 n=$2 out=$3; shift 3 ;;
esac
cpus="" seed="" quick="" wait=0 throttle="" sb=() sbx=() nosbx=0 rerun=""
# The sbatch options that submit.sh names (the rest come with --sbatch).
named_sbatch="--time --partition --account --qos --mem"
need() {
  [ "$2" -ge 2 ] || die "$1 needs a value"
  case $3 in *$'\n'*|*$'\r'*) die "$1: a value on one line, please" ;; esac
}
while [ $# -gt 0 ]; do
  case $1 in
    --cpus) need "$1" $# "${2:-}"; cpus=$2; shift 2 ;;
    --seed) need "$1" $# "${2:-}"; seed=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --wait) wait=1; shift ;;
    --time|--partition|--account|--qos|--mem) need "$1" $# "${2:-}"; sb+=("$1=$2"); shift 2 ;;
    --throttle) need "$1" $# "${2:-}"; throttle=$2; shift 2 ;;
    --sbatch) need "$1" $# "${2:-}"; case $2 in -*) sbx+=("$2") ;; *) die "--sbatch takes an sbatch option (starting with -), got '$2'" ;; esac; shift 2 ;;
    --no-sbatch) nosbx=1; shift ;;
    --rerun) need "$1" $# "${2:-}"; case $2 in *[!0-9,]*|''|,*|*,|*,,*) die "--rerun takes shard numbers separated by commas, got '$2'" ;; esac; rerun=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) die "unknown option $1" ;;
  esac
done
positive() { case $2 in ''|*[!0-9]*|0*) die "$1 must be a positive integer, got '$2'" ;; esac; }
[ -z "$cpus" ] || positive --cpus "$cpus"
[ -z "$throttle" ] || positive --throttle "$throttle"
case $seed in *[!0-9]*) die "--seed must be a non-negative integer, got '$seed'" ;; esac
seed=$(printf '%s' "$seed" | sed 's/^0*\([0-9]\)/\1/')
if [ ${#seed} -gt 20 ] || { [ ${#seed} -eq 20 ] && [[ $seed > 18446744073709551615 ]]; }; then
  die "--seed must be at most 18446744073709551615, got '$seed'"
fi
if [ $mode != submit ] && [ -n "$seed$quick" ]; then
  die "--seed and --quick belong to the first submission; --$mode takes them from $out.shards/submission"
fi
if [ $mode = status ] && { [ ${#sb[@]} -gt 0 ] || [ ${#sbx[@]} -gt 0 ] || [ -n "$cpus$throttle$rerun" ] || [ $wait = 1 ] || [ $nosbx = 1 ]; }; then
  die "--status takes no options"
fi
if [ $mode = submit ] && { [ -n "$rerun" ] || [ $nosbx = 1 ]; }; then
  die "--rerun and --no-sbatch belong to --recover"
fi
out=${out%/}
[ -n "$out" ] || die "OUT must not be empty"
work=$out.shards
record=$work/submission

# --- the submission's record: OUT.shards/submission (read as data, never sourced) ----------
# Fills rec_id, rec_n, rec_seed, rec_quick, rec_cpus, rec_throttle; fails naming the file and
# line. The sbatch options of the first submission are in OUT.shards/sbatch-options, one a line.
read_record() {
  rec_id="" rec_n="" rec_seed="" rec_quick="" rec_cpus=1 rec_throttle=""
  [ -f "$record" ] && [ ! -L "$record" ] || return 1
  local line k v no=0
  while IFS= read -r line || [ -n "$line" ]; do
    no=$((no + 1))
    k=${line%%=*} v=${line#*=}
    case $k in
      id) case $v in ''|*[!A-Za-z0-9._-]*) bad=1 ;; *) bad=0; rec_id=$v ;; esac ;;
      shards) case $v in ''|*[!0-9]*|0*) bad=1 ;; *) bad=0; rec_n=$v ;; esac ;;
      seed) case $v in *[!0-9]*) bad=1 ;; *) bad=0; rec_seed=$v ;; esac ;;
      quick) case $v in ''|1) bad=0; rec_quick=$v ;; *) bad=1 ;; esac ;;
      cpus) case $v in ''|*[!0-9]*|0*) bad=1 ;; *) bad=0; rec_cpus=$v ;; esac ;;
      throttle) case $v in *[!0-9]*|0*) bad=1 ;; *) bad=0; rec_throttle=$v ;; esac ;;
      *) bad=1 ;;
    esac
    [ $bad = 0 ] || die "$record line $no: unexpected '$(printf '%s' "$line" | head -c 60 | tr -c '[:print:]' '?')'"
  done <"$record"
  [ -n "$rec_id" ] && [ -n "$rec_n" ] || die "$record: no id= or shards= line"
}

# --- each shard's state, from its folder (the truth) and from Slurm (why it stopped) --------
# The shard folder's state: complete, failed, incomplete (R runs) or not started.
folder_state() {
  local d=$work/shard-$1 runs
  if [ ! -d "$d" ]; then echo "not started"; return; fi
  if grep -qs '^  "status": "complete' "$d/meta.json"; then echo complete; return; fi
  runs=$(( $(wc -l <"$d/runs.csv" 2>/dev/null || echo 1) - 1 ))
  [ $runs -ge 0 ] || runs=0
  if grep -qs '^  "status": "failed"' "$d/meta.json"; then echo "failed after $runs runs (error in $d/meta.json)"
  else echo "incomplete ($runs runs done)"; fi
}
# The ids of every job in OUT.shards/jobs, comma-separated.
job_ids() { awk '{print $2}' "$work/jobs" 2>/dev/null | tr -cd '0-9\n' | paste -sd, -; }
. "$here/states.sh"
# What Slurm says of a job: "is STATE", else the state submit.sh recorded, else that it has
# no record. Arguments: the job, Slurm's states now, the recorded ones, why there may be none.
said() {
  local st
  st=$(state_of "$1" "$2")
  if [ -n "$st" ]; then echo "is$st"; return; fi
  st=$(state_of "$1" "$3")
  if [ -n "$st" ]; then echo "was$st when submit.sh last asked Slurm (it has forgotten it since)"; return; fi
  echo "has no record left in Slurm $4"
}
# The last merge job of the submission.
last_merge() { awk '$1 == "merge" {m = $2} END {print m}' "$work/jobs" 2>/dev/null | tr -cd 0-9; }
# The last merge job ran (its log exists: it prints a line when it starts).
merge_failed() { local m; m=$(last_merge); [ -n "$m" ] && [ -s "$work/logs/merge-$m.out" ]; }
# The end of the last merge job's log (its error), indented, and the shards that error names.
merge_error() {
  local log bad
  log=$work/logs/merge-$(last_merge).out
  echo "  the merge's log ($log) ends with:"
  tail -n 4 "$log" | cut -c1-400 | tr -c '[:print:]\n' '?' | sed 's/^/    /'
}
# The shards the last merge job's error names (comma-separated, empty when none).
merge_blames() {
  tail -n 4 "$work/logs/merge-$(last_merge).out" | grep -oE '\.shards/shard-[0-9]+' | sed 's/.*-//' | sort -nu | paste -sd, - || true
}
# Prints one line per shard and for the merge; returns 0 when OUT is complete.
report() {
  local states recorded k array line log
  states=$(slurm_states)
  remember_states "$states"
  recorded=$(read_states) || exit 2
  for k in $(seq 1 "$rec_n"); do
    line="  shard $k: $(folder_state "$k")"
    array=$(awk -v k="$k" 'function has(list, k,  n, i, p, r) {
        n = split(list, p, ",")
        for (i = 1; i <= n; i++)
          if (split(p[i], r, "-") == 2 ? k >= r[1] + 0 && k <= r[2] + 0 : p[i] + 0 == k) return 1
        return 0
      }
      $1 == "array" && has($3, k) {a = $2} END {print a}' "$work/jobs" 2>/dev/null)
    if [ -n "$array" ]; then
      log=$work/logs/shard-${array}_$k.out
      line="$line; task ${array}_$k $(said "${array}_$k" "$states" "$recorded" "(cancelled while pending, or forgotten)")"
      [ ! -f "$log" ] || line="$line; log $log"
    fi
    echo "$line"
  done
  local merge
  merge=$(last_merge)
  if [ -n "$merge" ]; then
    log=$work/logs/merge-$merge.out
    echo "  merge: job $merge $(said "$merge" "$states" "$recorded" "(forgotten)")$( [ ! -f "$log" ] || echo "; log $log")"
  fi
  if grep -qs '^  "status": "complete' "$out/meta.json"; then
    echo "  output: $out is complete"
    return 0
  fi
  echo "  output: $out $( [ -e "$out" ] && echo "exists but is not complete" || echo "not written")"
  return 1
}
# Job ids of this submission that are still queued or running.
live_jobs() {
  local ids
  ids=$(job_ids)
  [ -z "$ids" ] || squeue -h -j "$ids" -o %i 2>/dev/null | paste -sd' ' - || true
}

command -v sbatch >/dev/null || die "sbatch not found (is Slurm installed?)"
if [ $mode = status ]; then
  read_record || die "$record not found: $out was not submitted by this script"
  read_states >/dev/null
  live=$(live_jobs)
  echo "$rec_n shards of $rec_id in $work; jobs still queued or running: ${live:-none}"
  report && exit 0 || exit 1
fi

seed_name() { if [ -n "$1" ]; then echo "seed $1"; else echo "the spec's seed"; fi; }
# Whether an sbatch option (--key=value or --key) is one submit.sh names, and whether it is
# given on today's command line.
named() { case " $named_sbatch " in *" ${1%%=*} "*) return 0 ;; *) return 1 ;; esac; }
given() {
  local o
  for o in ${sb[@]+"${sb[@]}"}; do [ "${o%%=*}" != "${1%%=*}" ] || return 0; done
  return 1
}
# --rerun: the folders of those shards moved aside (kept, never deleted), so they run afresh.
set_aside() {
  local k stamp
  [ -n "$rerun" ] || return 0
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  for k in ${rerun//,/ }; do
    case $k in 0*) die "--rerun: no shard '$k' (shards are 1 to $n)" ;; esac
    [ "$k" -le "$n" ] || die "--rerun: no shard $k (shards are 1 to $n)"
  done
  for k in ${rerun//,/ }; do
    [ -e "$work/shard-$k" ] || continue
    mv "$work/shard-$k" "$work/shard-$k.refused-$stamp"
    echo "shard $k: its folder moved to $work/shard-$k.refused-$stamp; it runs again"
  done
}
# Every shard is complete: the merge's own checks, here and now (they read the shards and
# write nothing). A refusal would only make the merge job fail the same way: report it, with
# the shards it names and the command that runs them again, and submit nothing.
check_merge() {
  local k shards=() err bad
  [ -x "$work/bin/sudoku-lab" ] || die "$work/bin/sudoku-lab is missing: the submission's binary is gone; remove $work and submit again"
  for k in $(seq 1 "$n"); do shards+=("$work/shard-$k"); done
  if err=$("$work/bin/sudoku-lab" merge "$out" "${shards[@]}" --check 2>&1 >/dev/null); then
    return 0
  fi
  bad=$(printf '%s\n' "$err" | grep -oE '\.shards/shard-[0-9]+' | sed 's/.*-//' | sort -nu | paste -sd, - || true)
  {
    echo "submit.sh: every shard of $out is complete, but the merge refuses them:"
    printf '%s\n' "$err" | tail -n 5 | sed 's/^/  /'
    if [ -n "$bad" ]; then
      echo "run the shards it names again (their folders are kept aside, not deleted):"
      echo "  $here/submit.sh --recover $out --rerun $bad"
    else
      echo "a merge job would fail the same way: correct what it says, then run submit.sh --recover $out again"
    fi
  } >&2
  exit 2
}

# --- a new submission, or the recovery of an earlier one ---------------------------------
if [ $mode = submit ]; then
  case $n in ''|*[!0-9]*|0*) die "N must be a positive integer, got '$n'" ;; esac
  if read_record; then
    # The same command again recovers; anything else that would mix with the shards is refused.
    what=""
    [ "$rec_id" = "$id" ] || what="experiment $rec_id, not $id"
    [ "$rec_n" = "$n" ] || what="$rec_n shards, not $n"
    [ "$rec_seed" = "$seed" ] || what="$(seed_name "$rec_seed"), not $(seed_name "$seed")"
    [ "$rec_quick" = "$quick" ] || what="$( [ -n "$rec_quick" ] && echo "--quick" || echo "a full run"), not $( [ -n "$quick" ] && echo "--quick" || echo "a full run")"
    if [ -n "$what" ]; then
      die "$work holds a submission of $what; recover it with 'submit.sh --recover $out', or remove it first (rm -r $work; its finished runs are lost) to submit this one"
    fi
    mode=recover
  elif [ -e "$work" ]; then
    die "$work exists but holds no submission record; remove it or choose another OUT"
  elif [ -e "$out" ]; then
    die "$out exists; choose a new folder"
  fi
fi
if [ $mode = recover ]; then
  read_record || die "$record not found: nothing to recover (submit with: submit.sh ID N $out)"
  read_states >/dev/null
  id=$rec_id n=$rec_n seed=$rec_seed quick=$rec_quick
  cpus=${cpus:-$rec_cpus} throttle=${throttle:-$rec_throttle}
  # The recorded sbatch options (the last submission's): a named one (--time, ...) unless
  # given again, the --sbatch ones unless --sbatch or --no-sbatch is given now.
  old=() oldx=() no=0
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
  if grep -qs '^  "status": "complete' "$out/meta.json"; then
    echo "$out is complete: nothing to recover"
    exit 0
  fi
  [ ! -e "$out" ] || die "$out exists but is not complete (the merge failed: see $work/logs/merge-*.out); remove $out, then run: submit.sh --recover $out"
  live=$(live_jobs)
  [ -z "$live" ] || die "jobs $live of this submission are still queued or running; wait for them (submit.sh --status $out) or scancel them, then recover"
  set_aside
  todo=()
  for k in $(seq 1 "$n"); do [ "$(folder_state "$k")" = complete ] || todo+=("$k"); done
  list=$(IFS=,; echo ${todo[@]+"${todo[*]}"})
  [ ${#todo[@]} -gt 0 ] || check_merge
  echo "recovering $out: ${#todo[@]} of $n shards to run (${list:-none}), then the merge"
else
  # The binary: built here (a no-op when nothing changed) or $LAB_BIN, checked before anything
  # is written, then copied once into the submission; every task and recovery runs that copy.
  cpus=${cpus:-1}
  if [ -z "${LAB_BIN:-}" ]; then
    (cd "$repo" && cargo build --release --quiet -p sudoku-lab)
    target=${CARGO_TARGET_DIR:-target}
    case $target in /*) ;; *) target=$repo/$target ;; esac
    LAB_BIN=$target/release/sudoku-lab
  fi
  [ -x "$LAB_BIN" ] || die "no executable binary at $LAB_BIN"
  "$LAB_BIN" list | awk '{print $1}' | grep -qx -- "$id" || die "no embedded experiment '$id' (sudoku-lab list)"
  mkdir -p "$work/logs" "$work/bin"
  # The experiment's spec is embedded in the binary, so this one copy freezes both.
  cp "$LAB_BIN" "$work/bin/.sudoku-lab.tmp-$$"
  chmod 0755 "$work/bin/.sudoku-lab.tmp-$$"
  mv "$work/bin/.sudoku-lab.tmp-$$" "$work/bin/sudoku-lab"
  printf 'id=%s\nshards=%s\nseed=%s\nquick=%s\ncpus=%s\nthrottle=%s\n' "$id" "$n" "$seed" "$quick" "$cpus" "$throttle" >"$record.tmp-$$"
  mv "$record.tmp-$$" "$record"
  list=1-$n
fi
work=$(cd "$work" && pwd)
record=$work/submission
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
bin=$work/bin/sudoku-lab
[ -x "$bin" ] || die "$bin is missing: the submission's binary is gone; remove $work and submit again"

# --- submit ------------------------------------------------------------------------------
# The sbatch options of this submission, recorded for the next recovery (one a line).
sb=(${sb[@]+"${sb[@]}"} ${sbx[@]+"${sbx[@]}"})
{ [ ${#sb[@]} -eq 0 ] || printf '%s\n' "${sb[@]}"; } >"$work/sbatch-options.tmp-$$"
mv "$work/sbatch-options.tmp-$$" "$work/sbatch-options"
export LAB_BIN=$bin LAB_ID=$id LAB_SHARDS=$n LAB_WORK=$work LAB_OUT=$out LAB_SEED=$seed LAB_QUICK=$quick
# sbatch ARGS..., printing the job's id. A refusal (a wrong account or partition, a time limit
# above the partition's) ends submit.sh with sbatch's exit code after Slurm's own error,
# saying what it refused and the command that goes on (the jobs submitted before are recorded).
sbatch_or_stop() {
  local what=$1 id rc=0
  shift
  id=$(sbatch "$@") || rc=$?
  if [ $rc != 0 ]; then
    {
      echo "submit.sh: sbatch refused the $what (Slurm's error above): nothing of it was submitted"
      echo "correct the option, then recover (options given to --recover replace the recorded ones of the same name):"
      echo "  $here/submit.sh --recover $out [options]"
    } >&2
    exit $rc
  fi
  echo "${id%%;*}"
}
common=(--parsable --export=ALL --open-mode=append --cpus-per-task="$cpus" ${sb[@]+"${sb[@]}"})
dep=() array=""
if [ -n "$list" ]; then
  array=$(sbatch_or_stop "array job" "${common[@]}" --array="$list${throttle:+%$throttle}" \
    --output="$work/logs/shard-%A_%a.out" "$here/shard.sbatch")
  echo "array $array $list" >>"$work/jobs"
  echo "submitted array job $array (shards $list of $n, $id)"
  dep=(--dependency="afterok:$array" --kill-on-invalid-dep=yes)
fi
merge=$(sbatch_or_stop "merge job" "${common[@]}" ${dep[@]+"${dep[@]}"} \
  --output="$work/logs/merge-%j.out" "$here/merge.sbatch")
echo "merge $merge" >>"$work/jobs"
echo "submitted merge job $merge${array:+ (after $array)}; output $out, logs $work/logs"
[ $wait = 1 ] || exit 0

# --- wait for the merge job to leave the queue, then judge by the output folder ------------
fails=0
while :; do
  # What Slurm says of every job, kept while it still knows (a task that failed early is
  # forgotten long before the last one ends and the merge is cancelled).
  remember_states "$(slurm_states)"
  if state=$(squeue -h -j "$merge" -o %T 2>/dev/null); then
    fails=0
    [ -n "$state" ] || break
  else
    fails=$((fails + 1))
    # squeue also fails for a job id the controller has already forgotten.
    [ $fails -lt 3 ] || break
  fi
  sleep "$poll"
done
read_record
read_states >/dev/null
if text=$(report); then
  echo "done: $out"
  exit 0
fi
{
  if ! printf '%s\n' "$text" | grep -q '^  shard [0-9]*: [^c]' && merge_failed; then
    echo "submit.sh: $out was not written: every shard finished, but the merge failed"
    printf '%s\n' "$text"
    merge_error
    bad=$(merge_blames)
    if [ -n "$bad" ]; then
      echo "it names shard(s) $bad: a rerun of the merge would fail the same way; run them again (their"
      echo "folders are kept aside, not deleted), then the merge:"
      echo "  $here/submit.sh --recover $out --rerun $bad"
      exit 1
    fi
    echo "if the merge failed for a passing reason (a node, the storage), recovering reruns it."
  else
    echo "submit.sh: $out was not written: not every shard finished"
    printf '%s\n' "$text"
  fi
  echo "recover (runs only the shards that are not complete, then the merge, with this submission's"
  echo "sbatch options; named options given to --recover replace the recorded ones, and so do its"
  echo "--sbatch options; with every shard complete, the merge's checks run first):"
  if printf '%s\n' "$text" | grep -q TIMEOUT; then
    echo "  $here/submit.sh --recover $out --time LONGER    (a task reached its time limit)"
  else
    echo "  $here/submit.sh --recover $out"
  fi
} >&2
exit 1
}
main "$@"
