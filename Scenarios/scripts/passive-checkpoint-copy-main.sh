#!/bin/sh
# BUG: runs a PASSIVE checkpoint, then copies the main .sqlite file alone (and the support folder), trusting the
# checkpoint to have moved every commit out of the -wal. A PASSIVE checkpoint never waits: it stops at the
# oldest open read transaction, so with an app's reader holding one the newest commits stay in the -wal.
set -eu
sqlite3 "$LIFEBOAT_STORE" ".timeout 30000" "PRAGMA wal_checkpoint(PASSIVE);" >/dev/null
cp "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR/$(basename "$LIFEBOAT_STORE")"
support="$(dirname "$LIFEBOAT_STORE")/.$(basename "$LIFEBOAT_STORE" .sqlite)_SUPPORT"
# External data files the store deletes meanwhile are skipped, as rsync skips vanished files.
if [ -d "$support" ]; then
    target="$LIFEBOAT_BACKUP_DIR/$(basename "$support")/_EXTERNAL_DATA"
    mkdir -p "$target"
    for file in "$support/_EXTERNAL_DATA/"*; do
        [ -e "$file" ] || continue
        cp "$file" "$target/" 2>/dev/null || echo "vanished: $(basename "$file")"
    done
fi
exit 0
