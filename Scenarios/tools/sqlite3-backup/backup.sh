#!/bin/sh
# sqlite3 CLI: the shell's .backup command (SQLite's online backup API), with a busy timeout as its
# documentation recommends for a database other connections write to.
. "$(dirname "$0")/../_lib.sh"
sqlite3 -cmd ".timeout 10000" "$LIFEBOAT_STORE" ".backup '$LIFEBOAT_BACKUP_DIR/$store_name'"
