#!/usr/bin/env python3
"""Restore in place through SQLite's online backup API: a connection to the live store receives the backup's
pages, under SQLite's own locks, so every connection that stays open (the app's pool, a reader) keeps the same
file and sees the restored content at its next read. The correct counterpart of B5 (restoring by renaming a new
file over a store whose connections stay open: https://github.com/jamie8johnson/cqs/issues/1125)."""
import os
import sqlite3

backup = os.environ["LIFEBOAT_BACKUP"]
source = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
destination = sqlite3.connect(os.environ["LIFEBOAT_STORE"], timeout=30)
source.backup(destination)
destination.close()
source.close()
