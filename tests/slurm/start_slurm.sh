#!/usr/bin/env bash
# A throw-away single-node SLURM for the cluster test (tests/e2e/test_slurm.py): installs slurm-wlm
# and munge from Debian's packages when missing (needs root), writes the munge key,
# /etc/slurm/slurm.conf and a TaskProlog (jobs run without $BOOSTRANK_DATA_MIRROR), and starts
# munged, slurmctld and slurmd. Everything the daemons write
# (state, spool, pid and log files) goes under STATE_DIR; their PIDs are printed as
# "pids: <munged> <slurmctld> <slurmd>" and written to STATE_DIR/pids, so
# tests/slurm/stop_slurm.sh STATE_DIR stops exactly these processes.
#
#   tests/slurm/start_slurm.sh STATE_DIR
#
# Idempotent: packages are installed once; the key and slurm.conf are rewritten each time.
# Refuses to run when a slurmctld is already running (it would not be ours to stop).
set -euo pipefail
STATE_DIR=${1:?usage: start_slurm.sh STATE_DIR}
mkdir -p "$STATE_DIR"
STATE_DIR=$(cd "$STATE_DIR" && pwd)

if [ "$(id -u)" != 0 ]; then
  echo "start_slurm.sh: needs root (to install packages and start slurmd)" >&2
  exit 3
fi
if pgrep -x slurmctld >/dev/null || pgrep -x slurmd >/dev/null; then
  echo "start_slurm.sh: a slurmctld/slurmd is already running; stop it first" >&2
  exit 4
fi

# 1. Packages (Debian: slurm-wlm pulls slurmctld, slurmd and the client commands).
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null \
   || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

# 2. munge: a key owned by munge, mode 400; munged runs as the munge user.
# munged's own files go to a folder the munge user can reach (STATE_DIR may be private).
MUNGE_DIR=$(mktemp -d /tmp/boostrank-munge.XXXXXX)
echo "$MUNGE_DIR" > "$STATE_DIR/munge_dir"
install -d -o munge -g munge -m 700 /etc/munge
install -d -o munge -g munge -m 755 /run/munge
chown munge:munge "$MUNGE_DIR"
chmod 700 "$MUNGE_DIR"
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
chown munge:munge /etc/munge/munge.key
chmod 400 /etc/munge/munge.key
if ! pgrep -x munged >/dev/null; then
  runuser -u munge -- munged --pid-file="$MUNGE_DIR/munged.pid" \
    --log-file="$MUNGE_DIR/munged.log" --seed-file="$MUNGE_DIR/munged.seed"
  for _ in $(seq 50); do [ -s "$MUNGE_DIR/munged.pid" ] && break; sleep 0.1; done
  MUNGED_PID=$(cat "$MUNGE_DIR/munged.pid")
else
  MUNGED_PID=""  # somebody else's: leave it running
fi
munge -n | unmunge >/dev/null

# 3. slurm.conf at the default path, so jobs and client commands find it. A slurm.conf that
# was there is kept in STATE_DIR and put back by stop_slurm.sh; if there was none, stop_slurm.sh
# removes ours: a slurm.conf naming a controller that no longer runs makes every `scontrol`
# (and so every Snakemake start, whose SLURM plugin asks it at import) wait 9 s.
HOST=$(hostname -s)
# The nodes' tasks do not get the submitting shell's $BOOSTRANK_DATA_MIRROR (a TaskProlog's
# "unset" clears it), as on a cluster whose jobs are not given the user's environment: the
# workflow must hand the data mirror to its jobs itself.
cat > "$STATE_DIR/task_prolog.sh" <<'PROLOG'
#!/bin/sh
echo "unset BOOSTRANK_DATA_MIRROR"
PROLOG
chmod 755 "$STATE_DIR/task_prolog.sh"
CPUS=$(nproc)
MEM_MB=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
mkdir -p /etc/slurm "$STATE_DIR"/{state,spool,log}
if [ ! -e "$STATE_DIR/slurm.conf.before" ] && [ ! -e "$STATE_DIR/slurm.conf.none" ]; then
  if [ -e /etc/slurm/slurm.conf ] && ! grep -q "^# Written by boostrank's" /etc/slurm/slurm.conf; then
    cp -p /etc/slurm/slurm.conf "$STATE_DIR/slurm.conf.before"
  else
    touch "$STATE_DIR/slurm.conf.none"
  fi
fi
cat > /etc/slurm/slurm.conf <<CONF
# Written by boostrank's tests/slurm/start_slurm.sh for the cluster test; safe to delete.
ClusterName=boostrank-test
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$STATE_DIR/state
SlurmdSpoolDir=$STATE_DIR/spool
SlurmctldPidFile=$STATE_DIR/slurmctld.pid
SlurmdPidFile=$STATE_DIR/slurmd.pid
SlurmctldLogFile=$STATE_DIR/log/slurmctld.log
SlurmdLogFile=$STATE_DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskProlog=$STATE_DIR/task_prolog.sh
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=600
ReturnToService=2
SchedulerType=sched/backfill
MpiDefault=none
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$HOST CPUs=$CPUS RealMemory=$MEM_MB State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF

# 4. Daemons, as root; -i ignores stale state from an earlier run.
slurmctld -i
slurmd
for _ in $(seq 100); do
  [ -s "$STATE_DIR/slurmctld.pid" ] && [ -s "$STATE_DIR/slurmd.pid" ] && break
  sleep 0.1
done
CTLD_PID=$(cat "$STATE_DIR/slurmctld.pid")
SLURMD_PID=$(cat "$STATE_DIR/slurmd.pid")
echo "$MUNGED_PID $CTLD_PID $SLURMD_PID" > "$STATE_DIR/pids"

# 5. Wait until the node takes jobs.
for _ in $(seq 150); do
  state=$(sinfo -h -N -o '%t' 2>/dev/null | head -1 || true)
  case "$state" in idle|mix|alloc) break ;; esac
  sleep 0.2
done
if ! sinfo -h -N -o '%t' | grep -Eq '^(idle|mix|alloc)'; then
  echo "start_slurm.sh: the node did not come up; see $STATE_DIR/log" >&2
  sinfo -N -l >&2 || true
  exit 5
fi
echo "pids: $MUNGED_PID $CTLD_PID $SLURMD_PID"
