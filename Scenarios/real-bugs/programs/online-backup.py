#!/usr/bin/env python3
"""Correct counterpart: SQLite's online backup API (Python's Connection.backup) reads one consistent snapshot
through SQLite, -wal included, into a temporary file that is synced and renamed into place; then the support
folder. LIFEBOAT_VACUUM_INTO=1 takes the snapshot with VACUUM INTO instead (the fix neotoma#2077 chose)."""
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import STORE, NAME, copy_support, fsync_path  # noqa: E402

target_dir = os.environ["LIFEBOAT_BACKUP_DIR"]
target = os.path.join(target_dir, NAME)
temporary = target + ".partial"
source = sqlite3.connect(STORE, timeout=30)
if os.environ.get("LIFEBOAT_VACUUM_INTO") == "1":
    source.execute("VACUUM INTO ?", (temporary,))
else:
    destination = sqlite3.connect(temporary)
    source.backup(destination)
    destination.close()
source.close()
check = sqlite3.connect("file:" + temporary + "?mode=ro", uri=True)
verdict = check.execute("PRAGMA integrity_check").fetchone()[0]
check.close()
if verdict != "ok":
    sys.exit("backup failed integrity_check: " + verdict)
fsync_path(temporary)
os.rename(temporary, target)
fsync_path(target_dir)
copy_support(target_dir)
