#!/usr/bin/env bash
# A one-node Slurm cluster on this machine (issue 11): Debian's slurm-wlm + munge, slurmctld and
# slurmd on localhost, one partition `lab` holding this host with all its CPUs. For trying the
# array job of scripts/slurm/ without a real cluster. Needs root; no systemd is assumed (the
# daemons are started directly). Idempotent: rerunning restarts the daemons with a fresh config.
#   sudo scripts/slurm/setup-local-cluster.sh          # install (apt) if needed, configure, start
#   sudo scripts/slurm/setup-local-cluster.sh stop     # stop the daemons
set -euo pipefail
if [ "$(id -u)" != 0 ]; then
  echo "setup-local-cluster: must run as root (it writes /etc/slurm and starts daemons)" >&2
  exit 2
fi
stop() {
  pkill -x slurmd 2>/dev/null || true
  pkill -x slurmctld 2>/dev/null || true
  pkill -x munged 2>/dev/null || true
  sleep 1
}
if [ "${1:-}" = stop ]; then
  stop
  echo "setup-local-cluster: stopped"
  exit 0
fi
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
stop

# munge: a key, its runtime folder, the daemon.
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
fi
chown munge:munge /etc/munge/munge.key
chmod 0400 /etc/munge/munge.key
install -d -o munge -g munge -m 0755 /run/munge /var/log/munge /var/lib/munge
su -s /bin/sh munge -c /usr/sbin/munged
munge -n | unmunge >/dev/null   # fails here if munge does not work

# slurm.conf for one node: this host, its CPU count and memory as slurmd sees them.
host=$(hostname -s)
cpus=$(nproc)
mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
install -d -m 0755 /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat >/etc/slurm/slurm.conf <<CONF
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
/usr/sbin/slurmctld
/usr/sbin/slurmd
for _ in $(seq 1 30); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then
    sinfo
    echo "setup-local-cluster: node ${host} idle with ${cpus} CPUs (partition lab)"
    exit 0
  fi
  sleep 1
done
echo "setup-local-cluster: the node did not become idle; see /var/log/slurm/*.log" >&2
sinfo >&2 || true
exit 1
