#!/bin/sh
# BorgBackup: extract the backup's archive at its original path (over the live store's files).
. "$(dirname "$0")/../_lib.sh"
export BORG_REPO="$LIFEBOAT_BACKUP_ROOT/borg-repo" BORG_BASE_DIR="$LIFEBOAT_SCRATCH/borg-home"
export BORG_UNKNOWN_UNENCRYPTED_REPO_ACCESS_IS_OK=yes
cd / && borg extract "::$(basename "$(dirname "$LIFEBOAT_BACKUP")")"
