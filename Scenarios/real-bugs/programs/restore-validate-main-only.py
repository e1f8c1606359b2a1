#!/usr/bin/env python3
"""B6 pattern: the restore validates its source through SQLite (a read-only connection, which reads the -wal:
integrity_check says ok and the row count is right), then copies only the source's main file into place."""
import os
import shutil
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import STORE, SUPPORT  # noqa: E402

backup = os.environ["LIFEBOAT_BACKUP"]
check = sqlite3.connect("file:" + backup + "?mode=ro", uri=True)
verdict = check.execute("PRAGMA integrity_check").fetchone()[0]
check.close()
print("source integrity_check:", verdict)
if verdict != "ok":
    sys.exit(1)
for suffix in ("-wal", "-shm"):
    if os.path.exists(STORE + suffix):
        os.remove(STORE + suffix)
shutil.copyfile(backup, STORE)
backup_support = os.path.join(os.path.dirname(backup), os.path.basename(SUPPORT))
if os.path.isdir(backup_support):
    shutil.rmtree(SUPPORT, ignore_errors=True)
    shutil.copytree(backup_support, SUPPORT)
print("ok: true")
