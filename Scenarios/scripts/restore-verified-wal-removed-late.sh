#!/bin/sh
# restore-verified.sh with one change, the order of its last two lines: the live -wal and -shm (a killed app's,
# holding commits the backup does not have) are removed after the final fsync of the store's folder instead of
# before the database is renamed into place. The store equals the backup the moment the restore reports success,
# but the two removals are not durable yet: a power cut then brings the old -wal back beside the restored
# database, and SQLite's next open replays it onto it. Caught by the restore-over-killed-app situation
# (restore-durable); restore-verified.sh holds there. Run as `restore: command` (LIFEBOAT_BACKUP, LIFEBOAT_STORE),
# after backup-with-checksums.sh.
set -eu
backup="$LIFEBOAT_BACKUP"
folder="$(dirname "$backup")"
store="$LIFEBOAT_STORE"
name="$(basename "$store")"
support=".${name%.*}_SUPPORT"
list="$folder.sha256"
[ -f "$list" ] || { echo "restore-verified: no checksum list $list for $folder: refusing to restore" >&2; exit 1; }
if ! failed="$(cd "$folder" && sha256sum --quiet -c "$list" 2>&1)"; then
    echo "restore-verified: $folder does not match the checksums taken at backup time: refusing to restore" >&2
    echo "$failed" >&2
    exit 1
fi
check="$(sqlite3 "file:$backup?immutable=1" "PRAGMA integrity_check;" 2>&1 || true)"
if [ "$check" != "ok" ]; then
    echo "restore-verified: $backup fails PRAGMA integrity_check: refusing to restore" >&2
    echo "$check" >&2
    exit 1
fi
cp "$backup" "$store.restoring"
sync "$store.restoring"
mv "$store.restoring" "$store"
rm -rf "$(dirname "$store")/$support"
if [ -d "$folder/$support" ]; then
    cp -a "$folder/$support" "$(dirname "$store")/"
fi
sync "$(dirname "$store")"
rm -f "$store-wal" "$store-shm"
