#!/bin/sh
# main.py --db-path DB --backup-dir DIR: shutil.copy2 of the database file to DIR/<stem>_<time>.sqlite, then
# rotation. The reference copy the harness checks is that file under the store's name, made durable by the
# adapter.
. "$(dirname "$0")/../_field.sh"
need python3
area="$(program_area wasserpuncher)"
python3 "$upstream/main.py" --db-path "$LIFEBOAT_STORE" --backup-dir "$area"
cp "$(ls -1t "$area"/*.sqlite | head -n 1)" "$LIFEBOAT_BACKUP_DIR/$store_name"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
