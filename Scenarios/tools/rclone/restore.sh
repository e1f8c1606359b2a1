#!/bin/sh
# rclone: `rclone sync` of the backup back over the store's folder (sync deletes what the backup lacks, such as a
# live -wal; the harness's /backups/ folder is excluded, and so kept).
. "$(dirname "$0")/../_lib.sh"
export RCLONE_CONFIG="$LIFEBOAT_SCRATCH/rclone.conf"
rclone sync --exclude "/backups/**" "$(dirname "$LIFEBOAT_BACKUP")" "$store_dir"
