#!/bin/sh
# tar: unpack the backup's archive over the store's folder.
. "$(dirname "$0")/../_lib.sh"
tar -xf "$(dirname "$LIFEBOAT_BACKUP").tar" -C "$store_dir"
