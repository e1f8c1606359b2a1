#!/bin/sh
# rsync: the store's folder (database, -wal, -shm and the .<Store>_SUPPORT folder), archive mode.
# /backups/ is where the harness keeps backups when they share the store's volume; a real store folder has none.
. "$(dirname "$0")/../_lib.sh"
tolerate 24 rsync -a --exclude=/backups/ "$store_dir/" "$LIFEBOAT_BACKUP_DIR/"
