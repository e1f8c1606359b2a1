#!/bin/sh
# backup.sh is configured by its environment (DATA_FOLDER, DATABASE_URL, ATTACHMENTS_FOLDER, BACKUP_ROOT): the
# database is the live store and the attachments folder Core Data's support folder (.Library_SUPPORT, the
# app's files the database refers to, as Vaultwarden's attachments are). The program runs unchanged: sqlite3
# "file:DB?mode=ro" .backup (retried up to 10 times), cp -a of the attachments folder, tar -caf. The reference
# copy the harness checks is the database and support folder extracted from that archive, made durable by the
# adapter.
. "$(dirname "$0")/../_field.sh"
need sqlite3 tar gzip
root="$(program_area smartfinn)"
mkdir -p "$root/archives"
support=".$(basename "$store_name" .sqlite)_SUPPORT"
DATA_FOLDER="$store_dir" DATABASE_URL="$LIFEBOAT_STORE" ATTACHMENTS_FOLDER="$store_dir/$support" \
    BACKUP_ROOT="$root" sh "$upstream/backup.sh"
archive="$(ls -1t "$root/archives"/*.tar.gz | head -n 1)"
folder="$(basename "$archive" .tar.gz)"
tar -xzf "$archive" -C "$root"
mv "$root/$folder/$store_name" "$LIFEBOAT_BACKUP_DIR/$store_name"
[ ! -d "$root/$folder/$support" ] || mv "$root/$folder/$support" "$LIFEBOAT_BACKUP_DIR/$support"
rm -rf "${root:?}/$folder"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
