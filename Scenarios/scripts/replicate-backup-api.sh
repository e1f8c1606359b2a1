#!/bin/sh
# The correct counterpart of replicate-file-copy.sh: every 0.2 s it takes one snapshot of the store through SQLite's
# online backup API (the sqlite3 shell's .backup, with a busy timeout) into a temporary file and renames it over
# the replica, so the replica is always one whole snapshot. `cycle-started` records when the last finished cycle
# began (its mtime), for replica-probe.sh.
set -eu
replica="$LIFEBOAT_BACKUP_ROOT/replica"
mkdir -p "$replica"
while :; do
    touch "$replica/.cycle-started"
    rm -f "$replica/store.sqlite.tmp"
    sqlite3 -cmd ".timeout 10000" "$LIFEBOAT_STORE" ".backup '$replica/store.sqlite.tmp'"
    mv "$replica/store.sqlite.tmp" "$replica/store.sqlite"
    mv "$replica/.cycle-started" "$replica/cycle-started"
    sleep 0.2
done
