#!/bin/sh
# backup.sh -d DIR -n %o -o db DB: the script's binary mode (sqlite3 -readonly ... .backup into a .pending file,
# renamed to the name %o, the database's own file name, once done).
. "$(dirname "$0")/../_field.sh"
need sqlite3
sh "$upstream/backup.sh" -d "$LIFEBOAT_BACKUP_DIR" -n %o -o db "$LIFEBOAT_STORE"
