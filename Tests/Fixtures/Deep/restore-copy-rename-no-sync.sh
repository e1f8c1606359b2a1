#!/bin/sh
# A naive restore (issue 29): copy the backup beside the live store, drop the live -wal and -shm, rename the copy
# into place. Nothing is synced, so a power failure after "done" can give back the old store or a torn one.
set -eu
cp "$LIFEBOAT_BACKUP" "$LIFEBOAT_STORE.restoring"
rm -f "$LIFEBOAT_STORE-wal" "$LIFEBOAT_STORE-shm"
mv "$LIFEBOAT_STORE.restoring" "$LIFEBOAT_STORE"
