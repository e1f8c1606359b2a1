#!/bin/sh
# BUG: puts the backup's database back (old -wal/-shm removed, rename into place, synced) but keeps the live
# support folder, as a restore script that only knows about the .sqlite file does. Core Data deleted every
# external data file the live store replaced or deleted since the backup, right after each save, so rows of
# the restored database name files that are no longer there: on a device those attachments read as nil.
set -eu
store="$LIFEBOAT_STORE"
backup="$LIFEBOAT_BACKUP"
rm -f "$store-wal" "$store-shm" "$store-journal"
cp "$backup" "$store.restoring"
mv "$store.restoring" "$store"
sync
exit 0
