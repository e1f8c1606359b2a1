#!/bin/sh
# python -m sqlite_backup SOURCE DESTINATION, with the defaults the README recommends (copy the database, -wal
# and -shm to a temporary folder while retrying until no file changed, then sqlite3.Connection.backup from
# that copy, then a wal_checkpoint(TRUNCATE) of the destination). DESTINATION is the backup folder: the
# program names the file after the source.
. "$(dirname "$0")/../_field.sh"
need_field_python
PYTHONPATH="$upstream" "$field_python" -m sqlite_backup "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR"
