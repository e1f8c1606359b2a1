#!/bin/sh
# sqlite3-restore SRC DST, as its README says: it takes SQLite's locks on the live database (and its -shm), removes
# the journal, truncates the -wal, invalidates the -shm, copies the backup over the database in place (keeping
# its inode), and fsyncs the file and its folder. scripts/field-study.sh builds the vendored main.go (no
# dependencies besides Go's standard library) into .venv/field/bin; without Go it is not found (exit 127).
. "$(dirname "$0")/../_field.sh"
restore="$lifeboat_root/.venv/field/bin/sqlite3-restore"
[ -x "$restore" ] || { echo "$restore: not found; scripts/field-study.sh builds it (needs go)" >&2; exit 127; }
"$restore" "$LIFEBOAT_BACKUP" "$LIFEBOAT_STORE"
