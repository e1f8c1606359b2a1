#!/bin/sh
# BorgBackup: the store's folder into a local repository (--encryption none, created on first use) under
# LIFEBOAT_BACKUP_ROOT, one archive per backup named after it; the archive is then extracted into
# LIFEBOAT_BACKUP_DIR, so the harness checks what the repository holds.
. "$(dirname "$0")/../_lib.sh"
export BORG_REPO="$LIFEBOAT_BACKUP_ROOT/borg-repo" BORG_BASE_DIR="$LIFEBOAT_SCRATCH/borg-home"
export BORG_UNKNOWN_UNENCRYPTED_REPO_ACCESS_IS_OK=yes
archive="$(basename "$LIFEBOAT_BACKUP_DIR")"
[ -d "$BORG_REPO" ] || borg init --encryption none
tolerate 1 borg create --exclude "$LIFEBOAT_BACKUP_ROOT" "::$archive" "$store_dir"
depth="$(printf '%s\n' "${store_dir#/}" | tr '/' '\n' | wc -l)"
(cd "$LIFEBOAT_BACKUP_DIR" && tolerate 1 borg extract --strip-components "$depth" "::$archive")
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
