#!/bin/sh
# duplicity: `duplicity restore --force` of the latest backup over the store's folder.
. "$(dirname "$0")/../_lib.sh"
duplicity restore --no-encryption --archive-dir "$LIFEBOAT_SCRATCH/duplicity-cache" --force \
    "file://$LIFEBOAT_BACKUP_ROOT/duplicity-repo" "$store_dir"
