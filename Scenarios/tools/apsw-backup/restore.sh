#!/bin/sh
# apsw: SQLite's online backup API (apsw_backup.py) from the backup into the live store, through a connection to it.
. "$(dirname "$0")/../_lib.sh"
python "$(dirname "$0")/apsw_backup.py" restore "$LIFEBOAT_BACKUP" "$LIFEBOAT_STORE"
