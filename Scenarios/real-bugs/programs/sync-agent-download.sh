#!/bin/sh
# B21: what a second device (or a restore from the cloud) gets: the agent's mirror of the store's files, copied
# into LIFEBOAT_BACKUP_DIR (the -shm is left out: SQLite rebuilds it from the -wal).
set -eu
name="$(basename "$LIFEBOAT_STORE")"
mirror="$LIFEBOAT_BACKUP_ROOT/agent"
cp "$mirror/$name" "$LIFEBOAT_BACKUP_DIR/$name"
[ -f "$mirror/$name-wal" ] && cp "$mirror/$name-wal" "$LIFEBOAT_BACKUP_DIR/$name-wal"
exit 0
