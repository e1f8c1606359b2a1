#!/bin/sh
# bup: `bup index` then `bup save` of the store's folder into a local repository (BUP_DIR) under
# LIFEBOAT_BACKUP_ROOT, one branch per backup named after it (https://bup.github.io/man/bup-save.html, bup's
# README "Using bup"). The saved tree is then restored into LIFEBOAT_BACKUP_DIR, so the harness checks what the
# repository holds.
. "$(dirname "$0")/../_lib.sh"
export BUP_DIR="$LIFEBOAT_BACKUP_ROOT/bup-repo"
branch="$(basename "$LIFEBOAT_BACKUP_DIR")"
[ -d "$BUP_DIR" ] || bup init
bup index --exclude "$store_dir/backups" "$store_dir"
bup save -n "$branch" "$store_dir"
bup restore -q -C "$LIFEBOAT_BACKUP_DIR" "/$branch/latest$store_dir/."
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
