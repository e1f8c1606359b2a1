#!/bin/sh
# bin/db_backup.sh backs up $HOME/db/db.sqlite3 into $HOME/backups/db/db-DATE.sqlite3 with sqlite3 ".backup": the
# adapter gives it a HOME where db/db.sqlite3 is a symbolic link to the live store (SQLite follows it to the real
# file and its -wal) and backups/db a folder beside the backup, and runs it unchanged. The reference copy the
# harness checks is that file under the store's name, made durable by the adapter.
. "$(dirname "$0")/../_field.sh"
need bash sqlite3
area="$(program_area egegunes)"
mkdir -p "$area/home/db" "$area/home/backups/db"
ln -sf "$LIFEBOAT_STORE" "$area/home/db/db.sqlite3"
HOME="$area/home" bash "$upstream/bin/db_backup.sh"
cp "$(ls -1t "$area/home/backups/db"/*.sqlite3 | head -n 1)" "$LIFEBOAT_BACKUP_DIR/$store_name"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
