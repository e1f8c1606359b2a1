#!/bin/sh
# shl-sqlbackup restore ID: the program checks the backup's SHA-256 against its metadata (verify), gunzips a
# copy to BACKUP_BASE/tmp.sqlite and runs sqlite3 DB ".restore" into the database the metadata names as the
# backup's source. The ID is the newest one of the backup's metadata database; the adapter stops (exit 2) if
# that source is not the live store it is asked to restore.
. "$(dirname "$0")/../_field.sh"
need sqlite3 gzip file sha256sum awk sed
base="$(dirname "$LIFEBOAT_BACKUP").shl"
row="$(sqlite3 -separator '|' "$base/shl-backups.db" "SELECT ID, Source FROM shl_backups ORDER BY ID DESC LIMIT 1;")"
[ "${row#*|}" = "$LIFEBOAT_STORE" ] || { echo "shl-sqlbackup's newest backup is of ${row#*|}, not $LIFEBOAT_STORE" >&2; exit 2; }
BACKUP_BASE="$base" BACKUP_PATH="$base" sh "$upstream/shl-sqlbackup" restore "${row%%|*}"
