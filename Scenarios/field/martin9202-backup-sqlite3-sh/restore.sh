#!/bin/sh
# Scripts/restore.sh PATH_TO_BACKUP RESTOREDIR loads the newest dump into a file that must not exist ("Destination
# file ... exists" otherwise), so the adapter first removes the live store's database, -wal and -shm, as a user
# of the script has to.
. "$(dirname "$0")/../_field.sh"
need bash sqlite3 gzip
dump="$(ls -1t "$(dirname "$LIFEBOAT_BACKUP").martin/dumps"/*.sql.gz | head -n 1)"
rm -f "$LIFEBOAT_STORE" "$LIFEBOAT_STORE-wal" "$LIFEBOAT_STORE-shm"
bash "$upstream/Scripts/restore.sh" "$dump" "$LIFEBOAT_STORE"
