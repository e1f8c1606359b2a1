#!/bin/sh
# sqlite3 CLI: the shell's .restore command copies the backup into the live database through SQLite.
. "$(dirname "$0")/../_lib.sh"
sqlite3 -cmd ".timeout 10000" "$LIFEBOAT_STORE" ".restore '$LIFEBOAT_BACKUP'"
