#!/bin/sh
# BUG (see docs/pitfalls.md#a-copy-taken-while-a-transaction-is-in-flight-is-torn): copies the database, then its -wal a
# moment later (LIFEBOAT_COPY_GAP seconds, default 0.3), with no lock. When a checkpoint falls in between, the -wal
# restarted, so the copied -wal no longer continues the copied database (a torn copy).
set -eu
name="$(basename "$LIFEBOAT_STORE")"
cp "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR/$name"
sleep "${LIFEBOAT_COPY_GAP:-0.3}"
[ -f "$LIFEBOAT_STORE-wal" ] && cp "$LIFEBOAT_STORE-wal" "$LIFEBOAT_BACKUP_DIR/$name-wal"
support="$(dirname "$LIFEBOAT_STORE")/.$(basename "$LIFEBOAT_STORE" .sqlite)_SUPPORT"
[ -d "$support" ] && cp -R "$support" "$LIFEBOAT_BACKUP_DIR/"
exit 0
