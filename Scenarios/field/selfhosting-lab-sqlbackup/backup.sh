#!/bin/sh
# shl-sqlbackup backup DB, with BACKUP_BASE (its metadata database and temporary files) and BACKUP_PATH (the
# backups) set to a folder beside the backup, as its README's environment variables say: sqlite3 DB ".backup
# FILE", gzip -9, and a row (date, SHA-256, source, backup path) in the metadata database. The reference copy
# the harness checks is that backup decompressed (gunzip -c), made durable by the adapter; the restore adapter
# runs the program's own restore of the newest backup ID.
. "$(dirname "$0")/../_field.sh"
need sqlite3 gzip file sha256sum awk sed
base="$(program_area shl)"
BACKUP_BASE="$base" BACKUP_PATH="$base" sh "$upstream/shl-sqlbackup" backup "$LIFEBOAT_STORE"
backup="$(sqlite3 "$base/shl-backups.db" "SELECT Backup FROM shl_backups ORDER BY ID DESC LIMIT 1;")"
gunzip -c "$backup" > "$LIFEBOAT_BACKUP_DIR/$store_name"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
