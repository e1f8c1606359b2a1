#!/usr/bin/env python3
"""A backup program that snapshots the store through SQLite's backup API into a temporary file on the backup
volume, fsyncs it, renames it into place and fsyncs the folders. What it does when that fsync fails with EIO is
the argument (drills fsync-retry-after-eio and fsync-eio-copies-again, docs/faultfs.md "fsync failure semantics"):

  retry  retries the fsync and, when the retry succeeds, reports success. On ext4 and XFS the failed pages were
         marked clean, so the retry writes nothing: the backup it reports is not on the disk (CuttleFS, ATC 2020).
  redo   treats the EIO as fatal to the copy: deletes it and copies the store again, reporting success only once a
         whole copy's fsync succeeded.
  fatal  treats the EIO as fatal to the program: deletes the copy and exits 1 (reports failure).

The snapshot connection runs with synchronous=OFF so that SQLite itself never fsyncs the copy: the program's own
fsync is the one the drill's rule fails."""
import os
import sqlite3
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "retry"
if mode not in ("retry", "redo", "fatal"):
    sys.exit(f"usage: backup-fsync-eio.py retry|redo|fatal, not {mode}")
store, dest = os.environ["LIFEBOAT_STORE"], os.environ["LIFEBOAT_BACKUP_DIR"]
name = os.path.basename(store)
temporary = os.path.join(dest, name + ".tmp")


def fsync(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def snapshot():
    if os.path.exists(temporary):
        os.unlink(temporary)
    source, copy = sqlite3.connect(store, timeout=30), sqlite3.connect(temporary)
    copy.execute("PRAGMA synchronous=OFF")
    source.backup(copy)
    copy.close()
    source.close()


os.makedirs(dest, exist_ok=True)
for attempt in range(3):
    snapshot()
    try:
        fsync(temporary)
        break
    except OSError as error:
        print(f"fsync of {temporary} failed: {error}", file=sys.stderr)
        if mode == "retry":
            fsync(temporary)
            print("the retried fsync succeeded", file=sys.stderr)
            break
        os.unlink(temporary)
        if mode == "fatal":
            sys.exit(1)
        print("copying again", file=sys.stderr)
else:
    sys.exit("no copy could be made durable")
os.rename(temporary, os.path.join(dest, name))
fsync(dest)
fsync(os.path.dirname(dest))
