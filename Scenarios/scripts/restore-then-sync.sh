#!/bin/sh
# A correct restore done by hand: the old -wal and -shm go, the backup's .sqlite replaces the live one through a
# rename, its external data files replace the live ones, and `sync` makes all of it durable before "done".
# (The drills run it with and without the final sync: LIFEBOAT_RESTORE_SYNC=none leaves it out.)
set -eu
store="$LIFEBOAT_STORE"
backup="$LIFEBOAT_BACKUP"
name="$(basename "$store" .sqlite)"
live_dir="$(dirname "$store")"
backup_dir="$(dirname "$backup")"
rm -f "$store-wal" "$store-shm" "$store-journal"
cp "$backup" "$store.restoring"
mv "$store.restoring" "$store"
rm -rf "$live_dir/.${name}_SUPPORT"
if [ -d "$backup_dir/.${name}_SUPPORT" ]; then
    cp -R "$backup_dir/.${name}_SUPPORT" "$live_dir/"
fi
case "${LIFEBOAT_RESTORE_SYNC:-sync}" in
    sync) sync ;;
    sync-f) sync -f "$live_dir" ;;
    python) python3 -c 'import os; os.sync()' ;;
    none) ;;
esac
exit 0
