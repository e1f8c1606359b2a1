#!/bin/sh
# apsw: SQLite's online backup API (apsw_backup.py) from the store into LIFEBOAT_BACKUP_DIR, at the SQLite that
# apsw's wheel carries (a current one, not the system's).
. "$(dirname "$0")/../_lib.sh"
python "$(dirname "$0")/apsw_backup.py" backup "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR/$store_name"
