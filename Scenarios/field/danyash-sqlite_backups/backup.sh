#!/bin/sh
# back_script.sh reads PROJECT_DB_PATH, BACKUP_DIR and NAME_DB from a .env beside itself (it cds to its own
# folder): the adapter copies the script unchanged into a folder beside the backup with such a .env and runs it
# there (sqlite3 DB ".backup 'BACKUP_DIR/DATE_NAME_COMMENT.sqlite'"). The reference copy the harness checks is
# that file under the store's name, made durable by the adapter.
. "$(dirname "$0")/../_field.sh"
need bash sqlite3
area="$(program_area danyash)"
cp "$upstream/back_script.sh" "$area/back_script.sh"
printf 'PROJECT_DB_PATH="%s"\nBACKUP_DIR="%s"\nNAME_DB=Library\n' "$LIFEBOAT_STORE" "$area/backups" > "$area/.env"
bash "$area/back_script.sh"
cp "$(ls -1t "$area/backups"/*.sqlite | head -n 1)" "$LIFEBOAT_BACKUP_DIR/$store_name"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
