#!/bin/sh
# sqlite-utils dump DB > FILE, as its documentation shows ("Output a SQL dump of the schema and full contents of
# the database"): Python's Connection.iterdump() through sqlite-utils (or the sqlite-dump package when it is
# installed; it is not here). The reference copy the harness checks is that dump loaded into a new file by the
# sqlite3 shell, made durable by the adapter.
. "$(dirname "$0")/../_field.sh"
need_field_python
need sqlite3
area="$(program_area sqliteutils)"
PYTHONPATH="$upstream" "$field_python" -m sqlite_utils dump "$LIFEBOAT_STORE" > "$area/dump.sql"
sqlite3 "$LIFEBOAT_BACKUP_DIR/$store_name" < "$area/dump.sql"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
