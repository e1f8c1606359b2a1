#!/bin/sh
# bup: `bup restore -C` of the backup's branch into the store's folder. bup restore refuses to overwrite a folder
# that is not empty ("refusing to overwrite non-empty dir"), so, as a user would, the store's files (database,
# -wal, -shm and support folder) are removed first, then the saved tree is restored in their place.
. "$(dirname "$0")/../_lib.sh"
export BUP_DIR="$LIFEBOAT_BACKUP_ROOT/bup-repo"
rm -rf "$LIFEBOAT_STORE" "$LIFEBOAT_STORE-wal" "$LIFEBOAT_STORE-shm" "$store_dir/.${store_name%.*}_SUPPORT"
bup restore -q -C "$store_dir" "/$(basename "$(dirname "$LIFEBOAT_BACKUP")")/latest$store_dir/."
