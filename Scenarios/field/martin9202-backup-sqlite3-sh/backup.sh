#!/bin/sh
# Scripts/backup.sh names its database and backup folder under $HOME ($HOME/path/too/bdd.db,
# $HOME/path/too/backups/): the adapter gives it a HOME where those two names are symbolic links to the live
# store and to a folder beside the backup, and runs it unchanged (sqlite3 DB .dump | gzip). The reference copy
# the harness checks is what the program's own Scripts/restore.sh makes of that dump (gunzip | sqlite3 into a
# new file), made durable by the adapter (make_reference_durable): a crash tests the dump through the restore.
. "$(dirname "$0")/../_field.sh"
need bash sqlite3 gzip
area="$(program_area martin)"
home="$area/home"
mkdir -p "$home/path/too" "$area/dumps"
ln -sf "$LIFEBOAT_STORE" "$home/path/too/bdd.db"
ln -sfn "$area/dumps" "$home/path/too/backups"
HOME="$home" bash "$upstream/Scripts/backup.sh"
dump="$(ls -1t "$area/dumps"/*.sql.gz | head -n 1)"
bash "$upstream/Scripts/restore.sh" "$dump" "$LIFEBOAT_BACKUP_DIR/$store_name"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
