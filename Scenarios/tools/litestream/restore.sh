#!/bin/sh
# Litestream: `litestream restore -force` over the live store (it replaces the database and its -wal and -shm).
# Litestream 0.3 has no -force and refuses a database that exists: as its documentation says, the database (and
# its -wal and -shm) is removed first.
. "$(dirname "$0")/../_lib.sh"
if litestream restore -h 2>&1 | grep -q -- '-force'; then
    litestream restore -force -o "$LIFEBOAT_STORE" "file://$LIFEBOAT_BACKUP_ROOT/litestream-replica"
else
    rm -f "$LIFEBOAT_STORE" "$LIFEBOAT_STORE-wal" "$LIFEBOAT_STORE-shm"
    litestream restore -o "$LIFEBOAT_STORE" "file://$LIFEBOAT_BACKUP_ROOT/litestream-replica"
fi
