#!/bin/sh
# rclone: `rclone sync` of the store's folder (database, -wal, -shm and the .<Store>_SUPPORT folder) to a local
# path, as https://rclone.org/commands/rclone_sync/ shows (a local path is a remote of its own: rclone.org/local/).
# /backups/ is where the harness keeps backups when they share the store's volume; a real store folder has none.
. "$(dirname "$0")/../_lib.sh"
export RCLONE_CONFIG="$LIFEBOAT_SCRATCH/rclone.conf"
rclone sync --exclude "/backups/**" "$store_dir" "$LIFEBOAT_BACKUP_DIR"
