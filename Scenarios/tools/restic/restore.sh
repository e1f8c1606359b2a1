#!/bin/sh
# restic: restore the backup's snapshot to its original path (over the live store's files).
. "$(dirname "$0")/../_lib.sh"
export RESTIC_REPOSITORY="$LIFEBOAT_BACKUP_ROOT/restic-repo" RESTIC_PASSWORD=lifeboat RESTIC_CACHE_DIR="$LIFEBOAT_SCRATCH/restic-cache"
restic restore -q latest --tag "$(basename "$(dirname "$LIFEBOAT_BACKUP")")" --target /
