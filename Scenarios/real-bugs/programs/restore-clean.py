#!/usr/bin/env python3
"""Correct counterpart of the restore bugs: the live -wal and -shm are removed, the backup (database and, where
there is one, its -wal) is copied next to the store under a temporary name, synced and renamed into place, the
directory synced; then the support folder is replaced. LIFEBOAT_SKIP_DIR_SYNC=1 leaves out the directory fsync
(the B8 pattern: litestream#1342)."""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import STORE, restore_support, fsync_path  # noqa: E402

backup = os.environ["LIFEBOAT_BACKUP"]
directory = os.path.dirname(STORE)
for suffix in ("-wal", "-shm", "-journal"):
    if os.path.exists(STORE + suffix):
        os.remove(STORE + suffix)
temporary = STORE + ".restoring"
shutil.copyfile(backup, temporary)
if os.path.exists(backup + "-wal"):
    # A backup that carries a -wal: fold it in through SQLite on the temporary copy before the rename.
    import sqlite3
    shutil.copyfile(backup + "-wal", temporary + "-wal")
    connection = sqlite3.connect(temporary)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.execute("PRAGMA journal_mode=wal")
    connection.close()
fsync_path(temporary)
os.rename(temporary, STORE)
skip_sync = os.environ.get("LIFEBOAT_SKIP_DIR_SYNC") == "1"
if not skip_sync:
    fsync_path(directory)
if restore_support(backup, sync=not skip_sync) and not skip_sync:
    fsync_path(directory)
