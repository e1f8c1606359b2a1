#!/usr/bin/env python3
"""B20 pattern: the database snapshot through SQLite's backup API, then, a moment later (LIFEBOAT_BLOB_GAP,
default 0.5 s), a walk of the attachment folder: files the app deleted in between are missing, and the snapshot
still points at them."""
import os
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _common import STORE, NAME, copy_support  # noqa: E402

target_dir = os.environ["LIFEBOAT_BACKUP_DIR"]
source = sqlite3.connect(STORE, timeout=30)
destination = sqlite3.connect(os.path.join(target_dir, NAME))
source.backup(destination)
destination.close()
source.close()
time.sleep(float(os.environ.get("LIFEBOAT_BLOB_GAP", "0.5")))
copy_support(target_dir)
