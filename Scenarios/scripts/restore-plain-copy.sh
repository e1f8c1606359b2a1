#!/bin/sh
# The naive restore: the backup's files copied back as they are (the database over the store, the live -wal and
# -shm removed, the support folder replaced), with no look at whether they are what the backup wrote. Right for an
# intact backup; a damaged one goes in silently (Scenarios/damaged-backup-restored-silently.yaml).
set -eu
folder="$(dirname "$LIFEBOAT_BACKUP")"
store="$LIFEBOAT_STORE"
name="$(basename "$store")"
support=".${name%.*}_SUPPORT"
rm -f "$store-wal" "$store-shm"
cp "$LIFEBOAT_BACKUP" "$store"
rm -rf "$(dirname "$store")/$support"
if [ -d "$folder/$support" ]; then
    cp -a "$folder/$support" "$(dirname "$store")/"
fi
