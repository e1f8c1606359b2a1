#!/bin/sh
# Litestream: what the replica holds now, restored into LIFEBOAT_BACKUP_DIR so the harness can check it.
. "$(dirname "$0")/../_lib.sh"
litestream restore -o "$LIFEBOAT_BACKUP_DIR/$store_name" "file://$LIFEBOAT_BACKUP_ROOT/litestream-replica"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
