#!/bin/sh
# backup-sqlite3 restore --profile P: the program decompresses the newest backup of the job into
# DB-restoring.tmp, unlinks DB-shm, DB-wal and DB, and renames the temporary file over DB. The profile names the
# live store and the backup's program folder (the program reads each backup's compression from its name).
. "$(dirname "$0")/../_field.sh"
need_field_python
area="$(dirname "$LIFEBOAT_BACKUP").cologler"
printf 'store:\n  db_path: "%s"\n  dest_dir: "%s"\n  retention: 1\n' "$LIFEBOAT_STORE" "$area" > "$area/restore-profile.yaml"
PYTHONPATH="$upstream" "$field_python" -m backup_sqlite3 restore --profile "$area/restore-profile.yaml"
