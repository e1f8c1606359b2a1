#!/bin/sh
# rsync back over the store's folder, leaving its support folder alone.
. "$(dirname "$0")/../_lib.sh"
tolerate 24 rsync -a --delete --exclude=/backups/ --exclude='/.*_SUPPORT/' "$(dirname "$LIFEBOAT_BACKUP")/" "$store_dir/"
