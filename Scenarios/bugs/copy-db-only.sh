#!/bin/sh
# BUG (see docs/pitfalls.md#the--wal-is-part-of-the-database): backs up only the .sqlite file. Committed transactions still in the -wal are lost.
set -eu
cp "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR/$(basename "$LIFEBOAT_STORE")"
support="$(dirname "$LIFEBOAT_STORE")/.$(basename "$LIFEBOAT_STORE" .sqlite)_SUPPORT"
[ -d "$support" ] && cp -R "$support" "$LIFEBOAT_BACKUP_DIR/"
exit 0
