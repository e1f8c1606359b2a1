#!/usr/bin/env python3
"""BUG: a correct SQLite online backup (the sqlite3 module's backup API) that forgets Core Data's external data
folder: every attachment stored in _EXTERNAL_DATA is missing from the backup."""
import os
import sqlite3

live = os.environ["LIFEBOAT_STORE"]
target = os.path.join(os.environ["LIFEBOAT_BACKUP_DIR"], os.path.basename(live))
source = sqlite3.connect(live, timeout=30)
destination = sqlite3.connect(target)
with destination:
    source.backup(destination)
destination.close()
source.close()
