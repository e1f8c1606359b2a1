#!/usr/bin/env python3
"""A backup that carries the store as a pair: the database file and its -wal, copied while a second connection
holds SQLite's write lock (BEGIN IMMEDIATE), so no commit lands between the two copies; the support folder too.
Both files are fsynced and the folder with them. The backups of the B15 scenarios (the restore side is where
the mistake is)."""
import os
import shutil
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import STORE, NAME, copy_support, fsync_path  # noqa: E402

target_dir = os.environ["LIFEBOAT_BACKUP_DIR"]
lock = sqlite3.connect(STORE, timeout=30, isolation_level=None)
lock.execute("BEGIN IMMEDIATE")
try:
    for suffix in ("", "-wal"):
        if os.path.exists(STORE + suffix):
            shutil.copyfile(STORE + suffix, os.path.join(target_dir, NAME + suffix))
    copy_support(target_dir)
finally:
    lock.execute("ROLLBACK")
    lock.close()
for suffix in ("", "-wal"):
    if os.path.exists(os.path.join(target_dir, NAME + suffix)):
        fsync_path(os.path.join(target_dir, NAME + suffix))
fsync_path(target_dir)
