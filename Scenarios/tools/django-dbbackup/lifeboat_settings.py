# The smallest Django settings module under which django-dbbackup runs, as its documentation sets it up
# (https://archmonger.github.io/django-dbbackup/latest/installation/ and .../configuration/): the app
# installed, the store as the `default` SQLite database, and a FileSystemStorage for the backups under
# LIFEBOAT_BACKUP_ROOT. The `reference` database is where the harness has a backup restored to check it
# (LIFEBOAT_BACKUP_DIR). LIFEBOAT_DBBACKUP_CONNECTOR, when set, picks one of the SQLite connectors
# (https://archmonger.github.io/django-dbbackup/latest/databases/); unset, the package's default for SQLite.
import os

SECRET_KEY = "lifeboat"
USE_TZ = True
INSTALLED_APPS = ["dbbackup"]
_store = os.environ["LIFEBOAT_STORE"]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": _store, "OPTIONS": {"timeout": 10}}}
if os.environ.get("LIFEBOAT_BACKUP_DIR"):
    DATABASES["reference"] = {"ENGINE": "django.db.backends.sqlite3",
                              "NAME": os.path.join(os.environ["LIFEBOAT_BACKUP_DIR"], os.path.basename(_store))}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "dbbackup": {"BACKEND": "django.core.files.storage.FileSystemStorage",
                 "OPTIONS": {"location": os.path.join(os.environ["LIFEBOAT_BACKUP_ROOT"], "dbbackup")}},
}
DBBACKUP_TMP_DIR = os.environ.get("LIFEBOAT_SCRATCH") or None
if os.environ.get("LIFEBOAT_DBBACKUP_CONNECTOR"):
    DBBACKUP_CONNECTORS = {name: {"CONNECTOR": os.environ["LIFEBOAT_DBBACKUP_CONNECTOR"]} for name in DATABASES}
