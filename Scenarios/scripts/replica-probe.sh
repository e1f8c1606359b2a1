#!/bin/sh
# The restore probe of restore-during-replication-*.yaml: waits until a replication cycle that began after this
# probe did has finished (the replicator's `cycle-started` is newer than the probe's own mark), so every commit
# acknowledged before the probe began must be in the replica, then restores the replica's files into
# LIFEBOAT_BACKUP_DIR, where the harness checks them. 30 s without a cycle is a failure of the replicator.
set -eu
replica="$LIFEBOAT_BACKUP_ROOT/replica"
mark="$LIFEBOAT_SCRATCH/probe-$(basename "$LIFEBOAT_BACKUP_DIR")"
mkdir -p "$LIFEBOAT_SCRATCH" && touch "$mark"
waited=0
until [ -n "$(find "$replica" -maxdepth 1 -name cycle-started -newer "$mark" 2>/dev/null)" ]; do
    [ "$waited" -lt 600 ] || { echo "replica-probe: no replication cycle finished in 30 s" >&2; exit 1; }
    sleep 0.05
    waited=$((waited + 1))
done
name="$(basename "$LIFEBOAT_STORE")"
cp "$replica/store.sqlite" "$LIFEBOAT_BACKUP_DIR/$name"
if [ -f "$replica/store.sqlite-wal" ]; then cp "$replica/store.sqlite-wal" "$LIFEBOAT_BACKUP_DIR/$name-wal"; fi
