#!/usr/bin/env python3
"""B18 pattern: a migration or replace builds a new database from the backup next to the store and renames it
over the old one, as a migration manager does, while the old store's -wal (and -shm) stay beside it. Whoever
opens the store next replays the old -wal onto the new file."""
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import STORE, SUPPORT, fsync_path  # noqa: E402
import shutil  # noqa: E402

backup = os.environ["LIFEBOAT_BACKUP"]
temporary = STORE + ".migrated"
if os.path.exists(temporary):
    os.remove(temporary)
source = sqlite3.connect(backup)
source.execute("VACUUM INTO ?", (temporary,))
source.close()
fsync_path(temporary)
os.rename(temporary, STORE)
fsync_path(os.path.dirname(STORE))
backup_support = os.path.join(os.path.dirname(backup), os.path.basename(SUPPORT))
if os.path.isdir(backup_support):
    shutil.rmtree(SUPPORT, ignore_errors=True)
    shutil.copytree(backup_support, SUPPORT)
