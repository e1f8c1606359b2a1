#!/bin/sh
# rsync of the store's folder without the support folder (.<Store>_SUPPORT): the database files only.
. "$(dirname "$0")/../_lib.sh"
tolerate 24 rsync -a --exclude=/backups/ --exclude='/.*_SUPPORT/' "$store_dir/" "$LIFEBOAT_BACKUP_DIR/"
