#!/bin/sh
# sqlite3backup.py SRC DST, as its README says: Python's sqlite3.Connection.backup of the whole database in one
# step, written straight to the backup's file name.
. "$(dirname "$0")/../_field.sh"
need python3
python3 "$upstream/sqlite3backup.py" "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR/$store_name"
