#!/bin/sh
# rsync back over the store's folder; --delete removes files the backup does not have (a live -wal, say).
. "$(dirname "$0")/../_lib.sh"
tolerate 24 rsync -a --delete --exclude=/backups/ "$(dirname "$LIFEBOAT_BACKUP")/" "$store_dir/"
