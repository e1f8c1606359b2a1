#!/bin/sh
# BUG: takes a consistent snapshot of the database (sqlite3 .backup), then copies the support folder with the
# external data files afterwards. Between the two, writers replace and delete attachments; once the store has
# removed the obsolete files, the snapshot references files the copy no longer finds.
set -eu
name="$(basename "$LIFEBOAT_STORE")"
sqlite3 "$LIFEBOAT_STORE" ".timeout 30000" ".backup '$LIFEBOAT_BACKUP_DIR/$name'"
sleep "${LIFEBOAT_SUPPORT_COPY_DELAY:-0.5}"
support="$(dirname "$LIFEBOAT_STORE")/.$(basename "$LIFEBOAT_STORE" .sqlite)_SUPPORT"
# Like `rsync` treating "file has vanished" as a warning, files deleted during the copy are skipped.
if [ -d "$support" ]; then
    target="$LIFEBOAT_BACKUP_DIR/$(basename "$support")/_EXTERNAL_DATA"
    mkdir -p "$target"
    for file in "$support/_EXTERNAL_DATA/"*; do
        [ -e "$file" ] || continue
        cp "$file" "$target/" 2>/dev/null || echo "vanished: $(basename "$file")"
    done
fi
exit 0
