#!/bin/sh
# Litestream: `litestream replicate DB REPLICA_URL` follows the store's -wal and ships it to a file replica under
# LIFEBOAT_BACKUP_ROOT (the recipe's sidecar; the runner stops it with SIGTERM).
. "$(dirname "$0")/../_lib.sh"
exec litestream replicate "$LIFEBOAT_STORE" "file://$LIFEBOAT_BACKUP_ROOT/litestream-replica"
