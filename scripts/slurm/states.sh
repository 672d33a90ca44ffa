# Slurm job states shared by submit.sh and race.sh (sourced, not run): both keep the last
# state Slurm gave of each job in $work/slurm-states. Needs $work and job_ids.

# An awk function: a state with how the job ended, from Slurm's exit code "STATUS:SIGNAL" (a
# task killed by `kill -9` is "FAILED (JobLaunchFailure), killed by signal 9 (SIGKILL)", which
# Slurm's state alone does not say), or the state alone when both are 0.
ENDED_AWK='function ended(st, code,   p, names) {
  split("HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM", names, " ")
  if (split(code, p, ":") != 2) return st
  if (p[2] + 0 > 0) return st ", killed by signal " p[2] (p[2] + 0 <= 15 ? " (SIG" names[p[2] + 0] ")" : "")
  if (p[1] + 0 > 0) return st ", exit code " p[1]
  return st
}'
# Slurm's state of the jobs in OUT.shards/jobs as lines "JOB[_TASK] STATE", first match wins:
# queued or running ones (squeue), then sacct where accounting is on, else what the controller
# still remembers of ended ones (scontrol; it forgets them after MinJobAge, 5 minutes by default).
slurm_states() {
  local ids
  ids=$(job_ids)
  [ -n "$ids" ] || return 0
  squeue -h -r -j "$ids" -o '%i %T %r' 2>/dev/null || true
  if sacct -n -X -P -j "$ids" -o JobID,State,ExitCode 2>/dev/null \
    | awk -F'|' "$ENDED_AWK"' NF >= 2 {print $1, ended($2, $3)}' | grep .; then return 0; fi
  local j
  for j in ${ids//,/ }; do
    scontrol -o show job "$j" 2>/dev/null | awk "$ENDED_AWK"' {
      id = ""; task = ""; st = ""; code = "";
      for (i = 1; i <= NF; i++) {
        split($i, kv, "=");
        if (kv[1] == "JobId") id = kv[2];
        if (kv[1] == "ArrayJobId") arr = kv[2];
        if (kv[1] == "ArrayTaskId") task = kv[2];
        if (kv[1] == "JobState") st = kv[2];
        if (kv[1] == "Reason" && kv[2] != "None") st = st " (" kv[2] ")";
        if (kv[1] == "ExitCode") code = kv[2];
      }
      print (task == "" ? id : arr "_" task), ended(st, code) }' || true
  done
}
# OUT.shards/slurm-states: the last state Slurm gave of each job ("JOB[_TASK] STATE ..."),
# kept by --wait and --status while Slurm still knows, so that why a task ended is not lost
# when the controller forgets it. Read as data: a line that is not a job's state is refused.
read_states() {
  local f=$work/slurm-states line no=0
  [ -f "$f" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    no=$((no + 1))
    if ! [[ $line =~ ^[0-9]+(_[0-9]+)?\ [A-Z_]+ ]] || [[ $line == *[![:print:]]* ]]; then
      die "$f line $no: not a job's state"
    fi
    printf '%s\n' "$line"
  done <"$f"
}
# Adds the states STATES (lines of slurm_states) to OUT.shards/slurm-states, replacing older
# ones of the same jobs; the file is replaced whole.
remember_states() {
  local f=$work/slurm-states old
  [ -n "$1" ] && [ -d "$work" ] || return 0
  old=$(read_states) || exit 2
  { printf '%s\n' "$1" | tr -c '[:print:]\n' '?' | awk '$1 ~ /^[0-9]+(_[0-9]+)?$/ && $2 ~ /^[A-Z_]+,?$/'
    [ -z "$old" ] || printf '%s\n' "$old"
  } | awk '!seen[$1]++' >"$f.tmp-$$"
  mv "$f.tmp-$$" "$f"
}
# The state of job $1 in the lines $2, first match wins (empty when none).
state_of() { printf '%s\n' "$2" | awk -v t="$1" '$1 == t && s == "" {$1 = ""; s = $0} END {print s}'; }
