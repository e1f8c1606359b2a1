#!/bin/sh
# cp -a: the store's folder, files and support folder, as a Finder-style copy would take it.
. "$(dirname "$0")/../_lib.sh"
for entry in "$store_dir"/* "$store_dir"/.[!.]*; do
    [ -e "$entry" ] || continue
    [ "$entry" = "$LIFEBOAT_BACKUP_ROOT" ] && continue
    cp -a "$entry" "$LIFEBOAT_BACKUP_DIR/"
done
