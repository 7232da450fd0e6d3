#!/usr/bin/env bash
# Stop the daemons tests/slurm/start_slurm.sh STATE_DIR started, by the PIDs it recorded.
#   tests/slurm/stop_slurm.sh STATE_DIR
set -uo pipefail
STATE_DIR=${1:?usage: stop_slurm.sh STATE_DIR}
# Put back the slurm.conf start_slurm.sh found (or remove ours if there was none).
if [ -e "$STATE_DIR/slurm.conf.before" ]; then
  mv -f "$STATE_DIR/slurm.conf.before" /etc/slurm/slurm.conf
elif [ -e "$STATE_DIR/slurm.conf.none" ]; then
  rm -f /etc/slurm/slurm.conf "$STATE_DIR/slurm.conf.none"
fi
[ -s "$STATE_DIR/pids" ] || exit 0
read -r MUNGED_PID CTLD_PID SLURMD_PID < "$STATE_DIR/pids"
for pid in $SLURMD_PID $CTLD_PID $MUNGED_PID; do
  kill -TERM "$pid" 2>/dev/null || true
done
for pid in $SLURMD_PID $CTLD_PID $MUNGED_PID; do
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
done
rm -f "$STATE_DIR/pids"
if [ -s "$STATE_DIR/munge_dir" ]; then
  rm -rf "$(cat "$STATE_DIR/munge_dir")"
  rm -f "$STATE_DIR/munge_dir"
fi
