#!/bin/sh
# duplicity: the store's folder into a local repository (file:// URL, --no-encryption) under LIFEBOAT_BACKUP_ROOT;
# the first backup is full, later ones incremental (https://duplicity.us/stable/duplicity.1.html, "EXAMPLES").
# The latest backup is then restored into LIFEBOAT_BACKUP_DIR, so the harness checks what the repository holds.
. "$(dirname "$0")/../_lib.sh"
repo="file://$LIFEBOAT_BACKUP_ROOT/duplicity-repo"
cache="$LIFEBOAT_SCRATCH/duplicity-cache"
duplicity --no-encryption --archive-dir "$cache" --exclude "$store_dir/backups" "$store_dir" "$repo"
duplicity restore --no-encryption --archive-dir "$cache" --force "$repo" "$LIFEBOAT_BACKUP_DIR"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
