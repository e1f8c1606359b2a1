#!/bin/sh
# A naive replicator (the program restore-during-replication-file-copy.yaml catches): every 0.2 s it copies the
# store's database file to the replica under LIFEBOAT_BACKUP_ROOT and leaves the -wal and -shm out as temporary
# files, as sync agents that skip them do (docs/real-bugs.md, B1): commits since the last checkpoint are only in
# the -wal. `cycle-started` records when the last finished cycle began (its mtime), for replica-probe.sh.
set -eu
replica="$LIFEBOAT_BACKUP_ROOT/replica"
mkdir -p "$replica"
while :; do
    touch "$replica/.cycle-started"
    cp "$LIFEBOAT_STORE" "$replica/store.sqlite.tmp"
    mv "$replica/store.sqlite.tmp" "$replica/store.sqlite"
    mv "$replica/.cycle-started" "$replica/cycle-started"
    sleep 0.2
done
