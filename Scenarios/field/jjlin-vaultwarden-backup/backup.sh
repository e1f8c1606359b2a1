#!/bin/sh
# backup.sh works in VAULTWARDEN_ROOT (data/db.sqlite3, backup/backup.conf, backup/archives/): the adapter makes
# that layout beside the backup folder, data/db.sqlite3 a symbolic link to the live store (SQLite follows it to
# the real file and finds its -wal there), and a backup.conf from the shipped template with no encryption and no
# rclone destination (RCLONE_DESTS=(), so the upload loop does nothing and the script exits 0). The program then
# runs unchanged: sqlite3 "file:data/db.sqlite3?mode=ro" .backup, tar -cJf of the copy. The reference copy the
# harness checks is the db.sqlite3 extracted from that archive, made durable by the adapter.
. "$(dirname "$0")/../_field.sh"
need bash sqlite3 tar xz md5sum sha1sum
root="$(program_area jjlin)"
mkdir -p "$root/data" "$root/backup/archives"
ln -sf "$LIFEBOAT_STORE" "$root/data/db.sqlite3"
# Vaultwarden always writes data/rsa_key.pem at its first start; the script copies its data files with one
# `cp -a "${backup_files[@]}" DIR`, which fails when none of them exists. An empty stand-in keeps that line
# from failing on a folder that is not Vaultwarden's (an adapter need, not a finding; docs/field-study.md).
: > "$root/data/rsa_key.pem"
printf 'RCLONE_DESTS=()\n' > "$root/backup/backup.conf"
VAULTWARDEN_ROOT="$root" SQLITE3="$(command -v sqlite3)" bash "$upstream/backup.sh"
archive="$(ls -1t "$root/backup/archives"/*.tar.xz | head -n 1)"
folder="$(basename "$archive" .tar.xz)"
tar -xJf "$archive" -C "$root" "$folder/db.sqlite3"
mv "$root/$folder/db.sqlite3" "$LIFEBOAT_BACKUP_DIR/$store_name"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
