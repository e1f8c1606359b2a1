#!/bin/sh
# A backup written through SQLite in its default (DELETE) journal mode, straight to its name (as many scripts do:
# `sqlite3 db ".backup dest"`), then the file fsynced. SQLite fsyncs the backup and its journal, and the folder
# when it creates the journal, but not when it deletes the journal at the commit: a power cut right after success
# brings the journal back, and the next open rolls the backup's transaction back. The root cause of most of the
# field study's findings on programs believed good (docs/field-study.md, gap D); SQLite's fix is
# `PRAGMA synchronous=EXTRA`.
set -eu
name="$(basename "$LIFEBOAT_STORE")"
mkdir -p "$LIFEBOAT_BACKUP_DIR"
sqlite3 "$LIFEBOAT_STORE" ".backup '$LIFEBOAT_BACKUP_DIR/$name'"
sync "$LIFEBOAT_BACKUP_DIR/$name"
