#!/bin/sh
# django-dbbackup: `manage.py dbbackup` of the store (Django's `default` SQLite database) into a FileSystemStorage
# under LIFEBOAT_BACKUP_ROOT, one file per backup named after it (lifeboat_settings.py is the project's settings).
# The file is then restored with `dbrestore` into the `reference` database, LIFEBOAT_BACKUP_DIR, so the harness
# checks what the backup file holds. The connector is the package's default for SQLite (SqliteBackupConnector,
# SQLite's backup API) unless LIFEBOAT_DBBACKUP_CONNECTOR names another (django-dbbackup-dump, -copy).
. "$(dirname "$0")/../_lib.sh"
here="$(cd "$(dirname "$0")/../django-dbbackup" && pwd)"
set -- --pythonpath "$here" --settings lifeboat_settings
name="$(basename "$LIFEBOAT_BACKUP_DIR").dump"
django-admin dbbackup "$@" --database default --output-filename "$name"
django-admin dbrestore "$@" --database reference --input-filename "$name" --noinput
