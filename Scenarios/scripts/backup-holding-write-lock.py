#!/usr/bin/env python3
"""A backup that blocks the app: it takes SQLite's write lock (BEGIN IMMEDIATE) on the live store, copies the
database and its -wal under it (no other connection can commit, so none can checkpoint either: the pair is
consistent; the backup API cannot read through a connection that holds the write lock), and keeps the lock for HOLD seconds (default 2) before it lets go, as
a tool that snapshots under an exclusive lock does (Litestream 0.5.13 blocked every write for about 5.5 minutes
while it re-snapshotted; issue 30, point 3). The copy is consistent; the app's commits wait for the lock, which
the writers' commit latency shows (`stall_seconds`, Scenarios/backup-blocks-writers.yaml).
Run as `backup: command` (LIFEBOAT_STORE, LIFEBOAT_BACKUP_DIR)."""
import os
import shutil
import sqlite3
import sys
import time

store = os.environ["LIFEBOAT_STORE"]
target = os.path.join(os.environ["LIFEBOAT_BACKUP_DIR"], os.path.basename(store))
hold = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0

source = sqlite3.connect(store, timeout=30, isolation_level=None)
source.execute("BEGIN IMMEDIATE")
locked = time.monotonic()
for suffix in ("", "-wal"):
    if os.path.exists(store + suffix):
        shutil.copyfile(store + suffix, target + suffix)
time.sleep(max(0.0, hold - (time.monotonic() - locked)))
source.execute("COMMIT")
source.close()
print(f"held the write lock for {time.monotonic() - locked:.2f} s", file=sys.stderr)
