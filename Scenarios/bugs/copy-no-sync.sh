#!/bin/sh
# BUG: copies every file of the store (database, -wal, support folder) with cp and reports success without
# syncing the copies or the directories they were created in. On a disk that loses what was not synced, a power
# failure after "done" takes the backup away (see docs/faultfs.md, crash model).
set -eu
name="$(basename "$LIFEBOAT_STORE")"
cp "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR/$name"
[ -f "$LIFEBOAT_STORE-wal" ] && cp "$LIFEBOAT_STORE-wal" "$LIFEBOAT_BACKUP_DIR/$name-wal"
support="$(dirname "$LIFEBOAT_STORE")/.$(basename "$LIFEBOAT_STORE" .sqlite)_SUPPORT"
[ -d "$support" ] && cp -R "$support" "$LIFEBOAT_BACKUP_DIR/"
exit 0
