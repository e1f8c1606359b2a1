#!/bin/sh
# A backup that can be verified: the database through SQLite's online backup API (the sqlite3 shell's .backup,
# consistent while other connections write), then the store's support folder (its attachments), then a SHA-256
# of every file of the backup, written beside the backup folder as <folder>.sha256, which restore-verified.sh
# checks before it restores anything. Run as `backup: command` (LIFEBOAT_STORE, LIFEBOAT_BACKUP_DIR).
set -eu
store="$LIFEBOAT_STORE"
name="$(basename "$store")"
support=".${name%.*}_SUPPORT"
sqlite3 -cmd ".timeout 10000" "$store" ".backup '$LIFEBOAT_BACKUP_DIR/$name'"
if [ -d "$(dirname "$store")/$support" ]; then
    cp -a "$(dirname "$store")/$support" "$LIFEBOAT_BACKUP_DIR/"
fi
(cd "$LIFEBOAT_BACKUP_DIR" && find . -type f -print | LC_ALL=C sort | while IFS= read -r file; do sha256sum "$file"; done) > "$LIFEBOAT_BACKUP_DIR.sha256"
sync "$LIFEBOAT_BACKUP_DIR.sha256"
