#!/bin/sh
# rdiff-backup: `rdiff-backup backup SOURCE REPOSITORY`, a mirror of the store's folder with reverse increments,
# under LIFEBOAT_BACKUP_ROOT (https://rdiff-backup.net/docs/examples.html). The latest state (`restore --at now`)
# is then restored into LIFEBOAT_BACKUP_DIR, so the harness checks what the repository holds.
. "$(dirname "$0")/../_lib.sh"
repo="$LIFEBOAT_BACKUP_ROOT/rdiff-backup-repo"
tolerate "2 8 10" rdiff-backup backup --exclude "$store_dir/backups" "$store_dir" "$repo"
tolerate "2 8 10" rdiff-backup --force restore --at now "$repo" "$LIFEBOAT_BACKUP_DIR"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
