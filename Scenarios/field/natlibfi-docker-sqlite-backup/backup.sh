#!/bin/sh
# do-backup.sh (a Python program despite its name) is configured by DATABASE_FILE, DUMP_DIRECTORY and
# BACKUP_PREFIX: it writes Connection.iterdump() of the live store to DUMP_DIRECTORY/PREFIX-TIME.sql. The
# reference copy the harness checks is that dump loaded into a new file by the sqlite3 shell (the way such a
# dump is restored), made durable by the adapter.
. "$(dirname "$0")/../_field.sh"
need python3 sqlite3
area="$(program_area natlibfi)"
DATABASE_FILE="$LIFEBOAT_STORE" DUMP_DIRECTORY="$area" BACKUP_PREFIX=lifeboat python3 "$upstream/do-backup.sh"
dump="$(ls -1t "$area"/lifeboat-*.sql | head -n 1)"
sqlite3 "$LIFEBOAT_BACKUP_DIR/$store_name" < "$dump"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
