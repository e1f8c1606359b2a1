#!/usr/bin/env python3
"""A small point-in-time backup sidecar (our own): every 0.2 s it snapshots the store through SQLite's online
backup API into $LIFEBOAT_BACKUP_ROOT/snapshots/<unix time at which the snapshot began>.sqlite, so that a restore to
T can take the newest snapshot that began at or before T (programs/pitr-restore.py).

LIFEBOAT_PITR_RETENTION=S switches on the mistake from the public record (Litestream issue 1084: PITR after the
L0 retention; issue 1307: retention deletes files from an in-flight restore plan): snapshots older than S seconds
are pruned down to the first one (the "compacted" base), so the files that covered a moment T are gone by the time
T is restored, and the restore silently falls back to the older base instead of failing."""
import os
import signal
import sqlite3
import sys
import time

store = os.environ["LIFEBOAT_STORE"]
folder = os.path.join(os.environ["LIFEBOAT_BACKUP_ROOT"], "snapshots")
os.makedirs(folder, exist_ok=True)
retention = float(os.environ["LIFEBOAT_PITR_RETENTION"]) if os.environ.get("LIFEBOAT_PITR_RETENTION") else None
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

while True:
    began = time.time()
    temporary = os.path.join(folder, "partial")
    source = sqlite3.connect(store, timeout=30)
    destination = sqlite3.connect(temporary)
    source.backup(destination)
    destination.close()
    source.close()
    os.rename(temporary, os.path.join(folder, f"{began:.6f}.sqlite"))
    if retention is not None:
        stamps = sorted(float(name[:-len(".sqlite")]) for name in os.listdir(folder) if name.endswith(".sqlite"))
        for stamp in stamps[1:]:
            if stamp < time.time() - retention:
                os.remove(os.path.join(folder, f"{stamp:.6f}.sqlite"))
    time.sleep(0.2)
