#!/bin/sh
# sqlite3 CLI: VACUUM INTO writes a compacted copy of the database from one read transaction.
. "$(dirname "$0")/../_lib.sh"
sqlite3 -cmd ".timeout 10000" "$LIFEBOAT_STORE" "VACUUM INTO '$LIFEBOAT_BACKUP_DIR/$store_name'"
