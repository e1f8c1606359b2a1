#!/bin/sh
# restic: the store's folder into a local repository (created on first use) under LIFEBOAT_BACKUP_ROOT, one
# snapshot per backup, tagged with the backup's name. The snapshot is then restored into LIFEBOAT_BACKUP_DIR, so
# the harness checks what the repository holds.
. "$(dirname "$0")/../_lib.sh"
export RESTIC_REPOSITORY="$LIFEBOAT_BACKUP_ROOT/restic-repo" RESTIC_PASSWORD=lifeboat RESTIC_CACHE_DIR="$LIFEBOAT_SCRATCH/restic-cache"
tag="$(basename "$LIFEBOAT_BACKUP_DIR")"
[ -f "$RESTIC_REPOSITORY/config" ] || restic init -q
tolerate 3 restic backup -q --tag "$tag" --exclude "$LIFEBOAT_BACKUP_ROOT" "$store_dir"
staging="$LIFEBOAT_BACKUP_DIR.restic"
restic restore -q latest --tag "$tag" --target "$staging"
rmdir "$LIFEBOAT_BACKUP_DIR"
mv "$staging$store_dir" "$LIFEBOAT_BACKUP_DIR"
rm -rf "$staging"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
