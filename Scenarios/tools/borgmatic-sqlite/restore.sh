#!/bin/sh
# borgmatic: `borgmatic restore` of the backup's archive: the SQLite hook removes the database file and pipes the
# dump into `sqlite3` at the store's path.
. "$(dirname "$0")/../_lib.sh"
export LIFEBOAT_ARCHIVE="$(basename "$(dirname "$LIFEBOAT_BACKUP")")"
borgmatic --config "$(dirname "$0")/_borgmatic.yaml" restore --archive latest
