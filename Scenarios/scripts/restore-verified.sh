#!/bin/sh
# The restore that goes with backup-with-checksums.sh: it refuses, loudly (exit 1 and why), a backup whose files do
# not match the SHA-256 list taken at backup time (a flipped bit, a cut, a zeroed page, a missing attachment) or
# whose database fails PRAGMA integrity_check (read through immutable=1, which writes nothing beside it); only
# then does it put the backup in place: the database copied beside the store, synced and renamed over it, the
# live -wal and -shm removed first, the support folder replaced. Run as `restore: command` (LIFEBOAT_BACKUP,
# LIFEBOAT_STORE).
# LIFEBOAT_RESTORE_WAL_REMOVAL=late is the same restore with one change, for the restore-over-killed-app situation:
# the live -wal and -shm (a killed app's, holding commits the backup does not have) are removed after the final
# fsync of the store's folder instead of before the database is renamed into place. The store then equals the
# backup the moment the restore reports success, but the two removals are not durable: a power cut brings the old
# -wal back beside the restored database, and SQLite's next open replays it onto it (restore-durable).
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
[ "${LIFEBOAT_RESTORE_WAL_REMOVAL:-early}" = late ] || rm -f "$store-wal" "$store-shm"
mv "$store.restoring" "$store"
rm -rf "$(dirname "$store")/$support"
if [ -d "$folder/$support" ]; then
    cp -a "$folder/$support" "$(dirname "$store")/"
fi
sync "$(dirname "$store")"
[ "${LIFEBOAT_RESTORE_WAL_REMOVAL:-early}" = late ] && rm -f "$store-wal" "$store-shm"
exit 0
