#!/usr/bin/env python3
"""B1 pattern: export/backup of the database file alone (shutil.copyfile of the .sqlite), as a DB-only export
does; the -wal, where SQLite keeps every commit since the last checkpoint, is left behind."""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import STORE, NAME, copy_support  # noqa: E402

target = os.environ["LIFEBOAT_BACKUP_DIR"]
shutil.copyfile(STORE, os.path.join(target, NAME))
copy_support(target)
