#!/bin/sh
# cp -a back: the backup's files over the store's folder.
. "$(dirname "$0")/../_lib.sh"
backup_dir="$(dirname "$LIFEBOAT_BACKUP")"
for entry in "$backup_dir"/* "$backup_dir"/.[!.]*; do
    [ -e "$entry" ] || continue
    cp -a "$entry" "$store_dir/"
done
