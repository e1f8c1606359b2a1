#!/bin/sh
# backups.sh reads backups.ini beside itself ([cloud] provider = an rclone remote; [objects] N = DB;DAYS;FOLDER)
# and, for each database due, zips the file (zip -j) and uploads it with rclone copyto. The adapter copies the
# script unchanged into a folder beside the backup with a backups.ini naming the live store, an interval of 0
# days (always due) and an rclone remote of type local defined in the environment (RCLONE_CONFIG_FIELD_TYPE),
# so the "cloud" is a folder; HOME (its ~/.backup_logs) is that folder too. The reference copy the harness
# checks is the database unzipped from the uploaded archive, made durable by the adapter.
. "$(dirname "$0")/../_field.sh"
need bash rclone jq zip unzip
area="$(program_area pavelveter)"
mkdir -p "$area/cloud"
cp "$upstream/backups.sh" "$area/backups.sh"
printf '[cloud]\nprovider = field\n\n[objects]\n1 = %s;0;%s\n' "$LIFEBOAT_STORE" "$area/cloud" > "$area/backups.ini"
HOME="$area" RCLONE_CONFIG_FIELD_TYPE=local bash "$area/backups.sh"
unzip -o -q "$(ls -1t "$area/cloud"/*.zip | head -n 1)" -d "$area/unzipped"
mv "$area/unzipped/$store_name" "$LIFEBOAT_BACKUP_DIR/$store_name"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
