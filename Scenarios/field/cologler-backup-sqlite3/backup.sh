#!/bin/sh
# backup-sqlite3 backup --profile P: one job with the README's profile keys (db_path, dest_dir, retention: 1)
# and compression as the first argument says (true, the program's default, or false). With compression on, the
# program flock()s the database file and, when no -wal file is there, zstd-compresses the raw file; otherwise
# it falls back to sqlite3.Connection.backup and compresses that. With compression off it writes
# sqlite3.Connection.backup's copy. The reference copy the harness checks is the newest backup (decompressed
# with zstd -d when compressed), made durable by the adapter; the restore adapter runs the program's own restore
# from the same profile folder.
. "$(dirname "$0")/../_field.sh"
need_field_python
need zstd
compression="${1:-true}"
area="$(program_area cologler)"
printf 'store:\n  db_path: "%s"\n  dest_dir: "%s"\n  compression: %s\n  retention: 1\n' \
    "$LIFEBOAT_STORE" "$area" "$compression" > "$area/profile.yaml"
PYTHONPATH="$upstream" "$field_python" -m backup_sqlite3 backup --profile "$area/profile.yaml" --quiet
newest="$(ls -1t "$area"/store.*.sqlite3* | head -n 1)"
case "$newest" in
    *.zst) zstd -q -d -f "$newest" -o "$LIFEBOAT_BACKUP_DIR/$store_name" ;;
    *) cp "$newest" "$LIFEBOAT_BACKUP_DIR/$store_name" ;;
esac
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
