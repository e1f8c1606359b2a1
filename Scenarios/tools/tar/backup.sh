#!/bin/sh
# tar: an archive of the store's folder (kept beside the backup), then unpacked into LIFEBOAT_BACKUP_DIR so the
# harness checks what the archive holds.
. "$(dirname "$0")/../_lib.sh"
archive="$LIFEBOAT_BACKUP_DIR.tar"
tolerate 1 tar -cf "$archive" -C "$store_dir" --exclude=./backups .
tar -xf "$archive" -C "$LIFEBOAT_BACKUP_DIR"
