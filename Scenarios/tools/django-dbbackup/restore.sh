#!/bin/sh
# django-dbbackup: `manage.py dbrestore --noinput` of the backup's file into the store (the `default` database).
. "$(dirname "$0")/../_lib.sh"
here="$(cd "$(dirname "$0")/../django-dbbackup" && pwd)"
unset LIFEBOAT_BACKUP_DIR
django-admin dbrestore --pythonpath "$here" --settings lifeboat_settings --database default \
    --input-filename "$(basename "$(dirname "$LIFEBOAT_BACKUP")").dump" --noinput
