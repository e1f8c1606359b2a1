#!/bin/sh
# BUG: restores only the database (.sqlite and its -wal) onto a device that has no support folder (a new phone, or a restore that
# starts from an empty folder): the rows that name external data files in .<Store>_SUPPORT/_EXTERNAL_DATA find
# none, and Core Data reads those attachments as nil. Used by Scenarios/cloudkit/assets-lost-by-database-only-restore.yaml.
set -eu
store="$LIFEBOAT_STORE"
backup="$LIFEBOAT_BACKUP"
folder=$(dirname "$store")
name=$(basename "$store" .sqlite)
rm -f "$store-wal" "$store-shm" "$store-journal"
rm -rf "$folder/.${name}_SUPPORT"
cp "$backup" "$store.restoring"
mv "$store.restoring" "$store"
# The database's own -wal comes along (its last commits, the mirror's among them); only the support folder is left.
if [ -f "$backup-wal" ]; then cp "$backup-wal" "$store-wal"; fi
sync
exit 0
