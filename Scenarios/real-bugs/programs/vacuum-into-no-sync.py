#!/usr/bin/env python3
"""B17 pattern: the backup is VACUUM INTO a file next to the others and the program reports success. SQLite
documents that VACUUM INTO does not fsync its output (and the file comes out in rollback-journal mode): nothing
here syncs it, nor the directory it was created in. LIFEBOAT_SYNC=1 adds both (the correct counterpart)."""
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import STORE, NAME, fsync_path  # noqa: E402

target_dir = os.environ["LIFEBOAT_BACKUP_DIR"]
target = os.path.join(target_dir, NAME)
source = sqlite3.connect(STORE, timeout=30)
source.execute("VACUUM INTO ?", (target,))
source.close()
if os.environ.get("LIFEBOAT_SYNC") == "1":
    fsync_path(target)
    fsync_path(target_dir)
    fsync_path(os.path.dirname(target_dir))
print("backup written:", target)
