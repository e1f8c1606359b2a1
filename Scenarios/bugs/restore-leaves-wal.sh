#!/bin/sh
# BUG (see docs/pitfalls.md#a-stale--wal-or-hot-journal-is-replayed-onto-a-restored-file): restores by copying the backup's .sqlite over the live one and leaves the live store's old -wal
# and -shm in place; SQLite replays that stale -wal onto the restored file.
set -eu
cp "$LIFEBOAT_BACKUP" "$LIFEBOAT_STORE"
exit 0
