#!/bin/sh
# Litestream: `litestream restore -force` over the live store (it replaces the database and its -wal and -shm).
. "$(dirname "$0")/../_lib.sh"
litestream restore -force -o "$LIFEBOAT_STORE" "file://$LIFEBOAT_BACKUP_ROOT/litestream-replica"
