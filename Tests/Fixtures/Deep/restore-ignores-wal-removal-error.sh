#!/bin/sh
# A restore that puts the database in place carefully (issue 39, point 3): the backup copied beside the store,
# synced, renamed over it, the folder synced. Only then does it remove the old store's -wal and -shm, and it
# ignores a failure there (`|| true`, as many scripts do: "they are only leftovers"). When the unlink of the -wal
# fails (EIO), the killed app's -wal stays beside the restored database and SQLite's next open replays it onto
# it: the app finds the old store's commits instead of the backup's. Run as `restore: command` (LIFEBOAT_BACKUP,
# LIFEBOAT_STORE).
set -eu
cp "$LIFEBOAT_BACKUP" "$LIFEBOAT_STORE.restoring"
sync "$LIFEBOAT_STORE.restoring"
mv "$LIFEBOAT_STORE.restoring" "$LIFEBOAT_STORE"
sync "$(dirname "$LIFEBOAT_STORE")"
rm -f "$LIFEBOAT_STORE-wal" "$LIFEBOAT_STORE-shm" || true
sync "$(dirname "$LIFEBOAT_STORE")"
