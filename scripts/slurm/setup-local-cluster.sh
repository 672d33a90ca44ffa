#!/usr/bin/env bash
# A one-node Slurm cluster on this machine: Debian's slurm-wlm + munge, slurmctld and
# slurmd on localhost, one partition `lab` holding this host with all its CPUs. For trying the
# array job of scripts/slurm/ without a real cluster. Needs root; no systemd is assumed (the
# daemons are started directly).
#   sudo scripts/slurm/setup-local-cluster.sh [--force]   # install (apt-get update, then
#                                      install) if needed, configure, start
#   sudo scripts/slurm/setup-local-cluster.sh stop        # stop the daemons this script started
#   --force   replace an /etc/slurm/slurm.conf that differs from the one written here (the old
#             file is kept as slurm.conf.bak-<time>); without it such a file is left alone and
#             the script refuses.
# The daemons it starts are recorded in /run/sudoku-lab-slurm/*.pid; `stop` ends only those
# (a munged, slurmctld or slurmd that was running before is never stopped). Rerunning the setup
# restarts the daemons it started. It refuses when a slurmctld or slurmd it did not start runs.
set -euo pipefail
state=/run/sudoku-lab-slurm
conf=/etc/slurm/slurm.conf
usage() { sed -n '6,11p' "$0" >&2; exit 2; }
force=0 action=start
for a in "$@"; do
  case $a in
    --force) force=1 ;;
    stop) action=stop ;;
    -h|--help) usage ;;
    *) echo "setup-local-cluster: unknown argument '$a'" >&2; usage ;;
  esac
done
if [ "$(id -u)" != 0 ]; then
  echo "setup-local-cluster: must run as root (it writes /etc/slurm and starts daemons)" >&2
  exit 2
fi

# The pid recorded for daemon NAME, if that process still runs under that name.
recorded() {
  local f=$state/$1.pid pid
  [ -f "$f" ] || return 1
  pid=$(head -c 20 "$f" | tr -cd 0-9)
  [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ] && echo "$pid"
}
stop_one() {
  local pid
  if pid=$(recorded "$1"); then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do [ -d "/proc/$pid" ] || break; sleep 0.2; done
    if [ -d "/proc/$pid" ]; then echo "setup-local-cluster: $1 (pid $pid) did not stop" >&2; return 1; fi
    echo "setup-local-cluster: stopped $1 (pid $pid)"
  fi
  rm -f "$state/$1.pid"
}
stop_ours() { stop_one slurmd; stop_one slurmctld; stop_one munged; }
# Record the pid that daemon NAME wrote to PIDFILE (waits for it to appear).
record() {
  local pid=""
  for _ in $(seq 1 50); do
    pid=$(head -c 20 "$2" 2>/dev/null | tr -cd 0-9) || true
    if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ]; then
      echo "$pid" >"$state/$1.pid"
      return 0
    fi
    sleep 0.2
  done
  echo "setup-local-cluster: $1 did not start; see /var/log/slurm/ or /var/log/munge/" >&2
  return 1
}

if [ $action = stop ]; then
  stop_ours
  exit 0
fi
# A slurmctld or slurmd that is neither the one recorded nor a child of it (slurmctld forks
# helpers that carry its name for a moment) belongs to someone else.
for d in slurmctld slurmd; do
  ours=$(recorded "$d" || echo none)
  pid=$(ps -eo pid=,ppid=,comm= | awk -v d="$d" -v o="$ours" '$3 == d && $1 != o && $2 != o {print $1; exit}')
  if [ -n "$pid" ]; then
    echo "setup-local-cluster: a $d that this script did not start is running (pid $pid); stop it yourself or use that cluster" >&2
    exit 2
  fi
done

# The packages first (a fresh machine's package lists may be missing or stale: update them).
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  if ! apt-get update -qq >/dev/null; then
    echo "setup-local-cluster: 'apt-get update' failed (network or sources.list?); slurm-wlm and munge not installed" >&2
    exit 1
  fi
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null; then
    echo "setup-local-cluster: 'apt-get install slurm-wlm munge' failed" >&2
    exit 1
  fi
fi

# slurm.conf for one node: this host, its CPU count and memory as slurmd sees them.
host=$(hostname -s)
cpus=$(nproc)
mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
wanted=$(cat <<CONF
# Written by sudoku-lab scripts/slurm/setup-local-cluster.sh: a one-node cluster on localhost.
ClusterName=sudoku-lab
SlurmctldHost=${host}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
SchedulerType=sched/backfill
NodeName=${host} NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=${mem} State=UNKNOWN
PartitionName=lab Nodes=${host} Default=YES MaxTime=INFINITE State=UP
CONF
)
if [ -e "$conf" ] && [ "$(cat "$conf")" != "$wanted" ]; then
  if [ $force = 0 ]; then
    echo "setup-local-cluster: $conf exists and differs from the one-node configuration; left alone (rerun with --force to replace it, the old file is kept as a backup)" >&2
    exit 2
  fi
  backup=$conf.bak-$(date -u +%Y%m%dT%H%M%SZ)
  cp -p "$conf" "$backup"
  echo "setup-local-cluster: replacing $conf (old file kept as $backup)"
fi

install -d -m 0755 "$state"
stop_ours

# munge: a key (an existing one is kept), its runtime folder, the daemon (unless one answers).
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
fi
chown munge:munge /etc/munge/munge.key
chmod 0400 /etc/munge/munge.key
install -d -o munge -g munge -m 0755 /run/munge /var/log/munge /var/lib/munge
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  rm -f /run/munge/munged.pid
  su -s /bin/sh munge -c /usr/sbin/munged
  record munged /run/munge/munged.pid
fi
munge -n | unmunge >/dev/null   # fails here if munge does not work

install -d -m 0755 /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
if [ "$(cat "$conf" 2>/dev/null)" != "$wanted" ]; then
  printf '%s\n' "$wanted" >"$conf.tmp-$$"
  mv "$conf.tmp-$$" "$conf"
fi
rm -f /run/slurmctld.pid /run/slurmd.pid
/usr/sbin/slurmctld
record slurmctld /run/slurmctld.pid
/usr/sbin/slurmd
record slurmd /run/slurmd.pid
for _ in $(seq 1 30); do
  # idle, or already running jobs it had queued before a restart (mixed, allocated).
  if sinfo -h -o '%T' 2>/dev/null | grep -qxE 'idle|mixed|allocated'; then
    sinfo
    echo "setup-local-cluster: node ${host} up with ${cpus} CPUs (partition lab); stop with: $0 stop"
    exit 0
  fi
  sleep 1
done
echo "setup-local-cluster: the node did not become idle; see /var/log/slurm/*.log" >&2
sinfo >&2 || true
exit 1
