#!/bin/sh
# django-dbbackup with SqliteCPConnector (docs: https://archmonger.github.io/django-dbbackup/latest/databases/):
# the django-dbbackup recipe's backup.sh with that connector.
LIFEBOAT_DBBACKUP_CONNECTOR=dbbackup.db.sqlite.SqliteCPConnector exec sh "$(dirname "$0")/../django-dbbackup/backup.sh"
