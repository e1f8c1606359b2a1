#!/bin/sh
# rdiff-backup: `rdiff-backup --force restore --at now` of the repository over the store's folder (it makes the
# folder what the repository holds). It warns (status 2) that the folder is not empty: its manual page names 2
# (WARNING) and 8 (FILE WARNING), which may combine, as statuses of an action that completed.
. "$(dirname "$0")/../_lib.sh"
tolerate "2 8 10" rdiff-backup --force restore --at now --exclude "$store_dir/backups" "$LIFEBOAT_BACKUP_ROOT/rdiff-backup-repo" "$store_dir"
