#!/bin/sh
# B9 choreography, as a sidecar: the wal-shipper runs (0.5 s after it saved its first position), is killed
# (SIGKILL), an outside process runs a TRUNCATE checkpoint while it is down (the -wal restarts), the writers go
# on, and the shipper is started again 0.5 s later; it resumes from the position it saved.
set -u
dir="$(dirname "$0")"
python3 -u "$dir/wal-shipper.py" &
shipper=$!
waited=0
while [ ! -f "$LIFEBOAT_BACKUP_ROOT/replica/position" ] && [ "$waited" -lt 200 ]; do sleep 0.05; waited=$((waited + 1)); done
sleep 0.5
kill -9 "$shipper"; wait "$shipper" 2>/dev/null
sqlite3 "$LIFEBOAT_STORE" ".timeout 10000" "PRAGMA wal_checkpoint(TRUNCATE);"
sleep 0.5
trap 'kill "$shipper" 2>/dev/null; exit 0' TERM
python3 -u "$dir/wal-shipper.py" &
shipper=$!
: > "$LIFEBOAT_BACKUP_ROOT/replica/outage-over"
wait "$shipper"
