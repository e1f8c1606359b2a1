#!/bin/sh
# Litestream in restore-during-replication: a restore of the replica into LIFEBOAT_BACKUP_DIR (backup.sh) once the
# replica has caught up with the moment this probe began, its target time. Replication is asynchronous (a sync
# every second by default: https://litestream.io/reference/config/), so the probe waits until two files newer
# than its start have reached the replica (the second sync began after the first had finished, so after this
# probe began), or 10 s when the writers have stopped and nothing new comes; then restores as backup.sh does.
. "$(dirname "$0")/../_lib.sh"
marker="$LIFEBOAT_SCRATCH/probe-$(basename "$LIFEBOAT_BACKUP_DIR")"
mkdir -p "$LIFEBOAT_SCRATCH" && touch "$marker"
waited=0
while [ "$(find "$LIFEBOAT_BACKUP_ROOT/litestream-replica" -type f -newer "$marker" 2>/dev/null | wc -l)" -lt 2 ] && [ "$waited" -lt 200 ]; do
    sleep 0.05
    waited=$((waited + 1))
done
exec sh "$(dirname "$0")/backup.sh"
