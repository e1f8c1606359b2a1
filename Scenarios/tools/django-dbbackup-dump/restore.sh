#!/bin/sh
# django-dbbackup with SqliteConnector (docs: https://archmonger.github.io/django-dbbackup/latest/databases/):
# the django-dbbackup recipe's restore.sh with that connector.
LIFEBOAT_DBBACKUP_CONNECTOR=dbbackup.db.sqlite.SqliteConnector exec sh "$(dirname "$0")/../django-dbbackup/restore.sh"
