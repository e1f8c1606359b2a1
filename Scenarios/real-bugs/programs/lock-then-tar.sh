#!/bin/sh
# B22 pattern (Home Assistant's backup): ask the database's owner for a lock before the archive, give up after a
# timeout when it never comes (the owner is hung or dead), and archive the live database files with tar anyway,
# reporting success. The "owner" here is a lock file nobody releases (a recorder that died holding it).
set -eu
name="$(basename "$LIFEBOAT_STORE")"
dir="$(dirname "$LIFEBOAT_STORE")"
lock="$LIFEBOAT_SCRATCH/recorder.lock"
: > "$lock"
# The dead recorder: holds the lock and never answers.
( exec 9>"$lock"; flock 9; sleep 30 ) &
holder=$!
sleep 0.1
if ! flock -w "${LIFEBOAT_LOCK_WAIT:-0.5}" "$lock" true; then
    echo "warning: the database lock was not granted in time; backing up without it"
fi
kill "$holder" 2>/dev/null || true
tar --checkpoint=2 --checkpoint-action=exec='sleep 0.1' -C "$dir" -cf "$LIFEBOAT_SCRATCH/backup.tar" "$name" $( [ -f "$LIFEBOAT_STORE-wal" ] && echo "$name-wal" ) || [ $? -eq 1 ]
tar -C "$LIFEBOAT_BACKUP_DIR" -xf "$LIFEBOAT_SCRATCH/backup.tar"
echo "backup complete"
