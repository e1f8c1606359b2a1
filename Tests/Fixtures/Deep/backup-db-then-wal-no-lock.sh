#!/bin/sh
# A naive backup (REAL-BUGS.md B2): copy the database, then its -wal, with no lock; a commit or a checkpoint
# between the two copies gives a -wal that does not belong to the copied database.
set -eu
cp "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR/"
if [ -f "$LIFEBOAT_STORE-wal" ]; then cp "$LIFEBOAT_STORE-wal" "$LIFEBOAT_BACKUP_DIR/"; fi
sync
